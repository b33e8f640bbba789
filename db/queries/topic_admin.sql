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
