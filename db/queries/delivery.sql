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

-- name: DeliveryFlowCritical :one
-- Whether a workflow is marked critical (delivered whatever the opt-outs).
SELECT critical FROM flows WHERE app_id = @app_id AND identifier = @identifier;

-- name: DeliveryCategory :one
SELECT id, identifier, name, critical, channel_defaults FROM categories WHERE app_id = @app_id AND identifier = @identifier;

-- name: InsertInboxRows :many
-- Writes one inbox row per user, each with its own rendered text; a retried slice inserts
-- nothing twice.
INSERT INTO notifications (app_id, user_id, request_id, source_key, title, message, icon, url, data, blocks, category_id)
SELECT @app_id, r.user_id, @request_id, @source_key, r.title, r.message, r.icon, r.url, @data, @blocks, @category_id
FROM (SELECT unnest(@user_ids::bigint[]) AS user_id, unnest(@titles::text[]) AS title,
             unnest(@messages::text[]) AS message, unnest(@icons::text[]) AS icon, unnest(@urls::text[]) AS url) AS r
ON CONFLICT (request_id, user_id, source_key) DO NOTHING
RETURNING id, user_id;

-- Writes of a whole DeliverBatch call: one statement each for the inbox rows, the message
-- log and the requests' progress of every page of the call. One statement for all inbox
-- rows matters beyond round trips: the inbox counter triggers lock users in id order within
-- a statement, so concurrent calls reaching the same users never deadlock.

-- name: InsertInboxRowsOfPages :many
INSERT INTO notifications (app_id, user_id, request_id, source_key, title, message, icon, url, data, blocks, category_id)
SELECT r.app_id, r.user_id, r.request_id, '', r.title, r.message, r.icon, r.url, r.data, r.blocks, NULLIF(r.category_id, 0)
FROM (SELECT unnest(@app_ids::bigint[]) AS app_id, unnest(@user_ids::bigint[]) AS user_id,
             unnest(@request_ids::uuid[]) AS request_id, unnest(@titles::text[]) AS title,
             unnest(@messages::text[]) AS message, unnest(@icons::text[]) AS icon, unnest(@urls::text[]) AS url,
             unnest(@datas::jsonb[]) AS data, unnest(@blocks::jsonb[]) AS blocks,
             unnest(@category_ids::bigint[]) AS category_id) AS r
ORDER BY r.user_id, r.request_id
ON CONFLICT (request_id, user_id, source_key) DO NOTHING
RETURNING id, user_id, request_id;

-- name: InsertMessageLogsOfPages :many
INSERT INTO message_logs (app_id, request_id, workflow_id, user_id, user_identifier, channel, status, reason, error,
                          template_identifier, idempotency_key, delivered_at, failed_at)
SELECT r.app_id, r.request_id, @workflow_id, r.user_id, r.user_identifier, r.channel, r.status,
       NULLIF(r.reason, ''), NULLIF(r.error, ''), NULLIF(r.template_identifier, ''),
       CAST(r.request_id AS text) || ':' || r.user_identifier || ':' || r.channel,
       CASE WHEN r.status = 'delivered' THEN now() END,
       CASE WHEN r.status = 'failed' THEN now() END
FROM (SELECT unnest(@app_ids::bigint[]) AS app_id, unnest(@request_ids::uuid[]) AS request_id,
             unnest(@user_ids::bigint[]) AS user_id, unnest(@user_identifiers::text[]) AS user_identifier,
             unnest(@channels::text[]) AS channel, unnest(@statuses::text[]) AS status,
             unnest(@reasons::text[]) AS reason, unnest(@errors::text[]) AS error,
             unnest(@template_identifiers::text[]) AS template_identifier) AS r
ON CONFLICT (request_id, user_id, channel, step_key) DO NOTHING
RETURNING id, request_id, user_id, channel, status;

-- name: RecordDeliveredOfPages :exec
-- The rows are locked in id order first: the concurrent transactions of one call (and of
-- calls packing the same requests) then never wait on each other in a cycle.
WITH locked AS (
    SELECT id FROM notification_requests WHERE id = ANY(@ids::uuid[]) ORDER BY id FOR UPDATE
)
UPDATE notification_requests nr
SET delivered_count = nr.delivered_count + p.delivered,
    status = CASE WHEN p.done THEN 'completed' ELSE nr.status END,
    completed_at = CASE WHEN p.done THEN now() ELSE nr.completed_at END,
    updated_at = now()
FROM (SELECT unnest(@ids::uuid[]) AS id, unnest(@delivered::int[]) AS delivered, unnest(@done::bool[]) AS done) AS p
WHERE nr.id = p.id AND nr.id IN (SELECT id FROM locked);

-- name: DeliveryRequestContents :many
-- DeliveryRequestContent for the requests of a batch.
SELECT id, app_id, (payload - 'recipients')::jsonb AS payload FROM notification_requests WHERE id = ANY(@ids::uuid[]);
