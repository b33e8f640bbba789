-- Queries of the delivery activities: recipients, preferences, addresses, request content.

-- name: DeliveryTopicByIdentifier :one
SELECT id FROM topics WHERE app_id = @app_id AND identifier = @identifier;

-- name: DeliveryTopicMembers :many
-- One page of a topic's subscribers in user id order, after a user id (keyset paging).
SELECT s.user_id, s.channels, u.identifier, u.profile
FROM topic_subscriptions s
JOIN users u ON u.id = s.user_id
WHERE s.topic_id = @topic_id AND s.user_id > @after_user AND u.app_id = @app_id
ORDER BY s.user_id
LIMIT @max_rows;

-- name: DeliveryUsers :many
SELECT id, identifier, profile FROM users WHERE app_id = @app_id AND id = ANY(@ids::bigint[]);

-- name: DeliveryPreferences :many
-- The explicit preferences of some users for one category (NULL: notifications without
-- a category). Unset pairs are enabled.
SELECT user_id, channel, enabled FROM preferences
WHERE app_id = @app_id AND user_id = ANY(@user_ids::bigint[])
  AND category_id IS NOT DISTINCT FROM sqlc.narg(category_id)::bigint;

-- name: DeliveryUsersWithWebPush :many
SELECT DISTINCT user_id FROM web_push_subscriptions WHERE app_id = @app_id AND user_id = ANY(@user_ids::bigint[]);

-- name: DeliveryUsersWithPushTokens :many
SELECT DISTINCT user_id FROM devices
WHERE app_id = @app_id AND user_id = ANY(@user_ids::bigint[]) AND push_token IS NOT NULL AND push_token <> '';

-- name: DeliveryWebPushSubscriptions :many
SELECT id, endpoint, p256dh, auth FROM web_push_subscriptions WHERE app_id = @app_id AND user_id = @user_id ORDER BY id;

-- name: DeliveryPushTokens :many
SELECT id, push_token::text AS push_token FROM devices
WHERE app_id = @app_id AND user_id = @user_id AND push_token IS NOT NULL AND push_token <> '' ORDER BY id;

-- name: DeleteWebPushSubscription :exec
DELETE FROM web_push_subscriptions WHERE app_id = @app_id AND id = @id;

-- name: ClearDevicePushToken :exec
UPDATE devices SET push_token = NULL WHERE app_id = @app_id AND id = @id;

-- name: DeliveryRequestContent :one
-- A request without its inline recipients (which may be tens of thousands): what one
-- delivery needs.
SELECT app_id, (payload - 'recipients')::jsonb AS payload FROM notification_requests WHERE id = @id;

-- name: DeliveryCategory :one
SELECT id, identifier, name FROM categories WHERE app_id = @app_id AND identifier = @identifier;

-- name: InsertInboxRows :many
-- Writes one inbox row per user, each with its own rendered text; a retried slice inserts
-- nothing twice.
INSERT INTO notifications (app_id, user_id, request_id, source_key, title, message, icon, url, data, blocks, category_id)
SELECT @app_id, r.user_id, @request_id, @source_key, r.title, r.message, r.icon, r.url, @data, @blocks, @category_id
FROM (SELECT unnest(@user_ids::bigint[]) AS user_id, unnest(@titles::text[]) AS title,
             unnest(@messages::text[]) AS message, unnest(@icons::text[]) AS icon, unnest(@urls::text[]) AS url) AS r
ON CONFLICT (request_id, user_id, source_key) DO NOTHING
RETURNING id, user_id;

-- name: DeliveryRequestContents :many
-- DeliveryRequestContent for the requests of a batch.
SELECT id, app_id, (payload - 'recipients')::jsonb AS payload FROM notification_requests WHERE id = ANY(@ids::uuid[]);
