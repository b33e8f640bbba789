-- name: InsertNotifications :many
-- Writes one inbox row per user in one statement; a retried batch inserts nothing twice.
INSERT INTO notifications (app_id, user_id, request_id, source_key, title, message, icon, url, data, blocks, category_id)
SELECT @app_id, u.user_id, @request_id, @source_key, @title, @message, @icon, @url, @data, @blocks, @category_id
FROM unnest(@user_ids::bigint[]) AS u (user_id)
ON CONFLICT (request_id, user_id, source_key) DO NOTHING
RETURNING id, user_id;

-- name: ListInbox :many
SELECT n.*, c.identifier AS category_identifier, c.name AS category_name
FROM notifications n
LEFT JOIN categories c ON c.id = n.category_id
WHERE n.user_id = @user_id AND n.app_id = @app_id AND n.deleted_at IS NULL
ORDER BY n.created_at DESC, n.id DESC
LIMIT @max_rows OFFSET @skip_rows;

-- name: CountInbox :one
SELECT count(*) FROM notifications
WHERE user_id = @user_id AND app_id = @app_id AND deleted_at IS NULL;

-- name: CountUnread :one
SELECT count(*) FROM notifications
WHERE user_id = @user_id AND app_id = @app_id AND deleted_at IS NULL AND seen_at IS NULL AND read_at IS NULL;
