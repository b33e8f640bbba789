-- Topics and their subscriptions. Topics are scoped by app; subscriptions through their
-- topic and user, both checked against the app.

-- name: InsertTopic :one
INSERT INTO topics (app_id, identifier, name) VALUES (@app_id, @identifier, @name)
RETURNING *;

-- name: ListAppTopics :many
SELECT * FROM topics WHERE app_id = @app_id ORDER BY id;

-- name: GetAppTopic :one
SELECT * FROM topics WHERE app_id = @app_id AND id = @id;

-- name: RenameTopic :one
UPDATE topics SET name = @name, updated_at = now() WHERE app_id = @app_id AND id = @id
RETURNING *;

-- name: DeleteAppTopic :execrows
DELETE FROM topics WHERE app_id = @app_id AND id = @id;

-- name: SubscribeTopicUsers :execrows
-- Subscribes users (ids of the app's users) with their channels (JSON arrays of strings);
-- an existing subscription takes the new channels.
INSERT INTO topic_subscriptions (topic_id, user_id, channels)
SELECT t.id, u.id, ARRAY(SELECT jsonb_array_elements_text(s.channels))
FROM (SELECT unnest(@user_ids::bigint[]) AS user_id, unnest(@channels::jsonb[]) AS channels) AS s
JOIN users u ON u.id = s.user_id AND u.app_id = @app_id
JOIN topics t ON t.id = @topic_id AND t.app_id = @app_id
ON CONFLICT (topic_id, user_id) DO UPDATE SET channels = EXCLUDED.channels, updated_at = now();

-- name: UnsubscribeTopicUsers :execrows
DELETE FROM topic_subscriptions s
USING users u, topics t
WHERE s.user_id = u.id AND u.app_id = @app_id AND u.identifier = ANY(@identifiers::text[])
  AND s.topic_id = t.id AND t.id = @topic_id AND t.app_id = @app_id;

-- name: UpdateTopicSubscription :one
UPDATE topic_subscriptions s SET channels = @channels::text[], updated_at = now()
FROM users u, topics t
WHERE s.user_id = u.id AND u.app_id = @app_id AND u.identifier = @identifier
  AND s.topic_id = t.id AND t.id = @topic_id AND t.app_id = @app_id
RETURNING s.channels, s.created_at, s.updated_at;

-- name: ListUserTopicSubscriptions :many
SELECT sqlc.embed(t), s.channels, s.created_at AS subscribed_at, s.updated_at AS subscription_updated_at
FROM topic_subscriptions s
JOIN topics t ON t.id = s.topic_id AND t.app_id = @app_id
WHERE s.user_id = @user_id
ORDER BY t.id;

-- Topics as the management API manages them (/v1/topics/{id}): the owner lookup, and
-- subscriptions by id.

-- name: GetTopicClient :one
SELECT t.app_id, a.client_id FROM topics t JOIN apps a ON a.id = t.app_id WHERE t.id = @id;

-- name: ListTopicSubscribers :many
SELECT s.id, s.user_id, u.identifier, s.channels, s.created_at, s.updated_at
FROM topic_subscriptions s
JOIN topics t ON t.id = s.topic_id AND t.app_id = @app_id
JOIN users u ON u.id = s.user_id
WHERE s.topic_id = @topic_id
ORDER BY s.id
LIMIT @max_rows OFFSET @skip_rows;

-- name: CountTopicSubscribers :one
SELECT count(*) FROM topic_subscriptions s JOIN topics t ON t.id = s.topic_id AND t.app_id = @app_id
WHERE s.topic_id = @topic_id;

-- name: DeleteTopicSubscriptionByUser :execrows
DELETE FROM topic_subscriptions s USING topics t
WHERE s.topic_id = t.id AND t.id = @topic_id AND t.app_id = @app_id AND s.user_id = @user_id;

-- name: DeleteTopicSubscriptionByID :execrows
DELETE FROM topic_subscriptions s USING topics t
WHERE s.topic_id = t.id AND t.id = @topic_id AND t.app_id = @app_id AND s.id = @id;
