-- name: InsertNotifications :many
-- Writes one inbox row per user in one statement; a retried batch inserts nothing twice.
INSERT INTO notifications (app_id, user_id, request_id, source_key, title, message, icon, url, data, blocks, category_id)
SELECT @app_id, u.user_id, @request_id, @source_key, @title, @message, @icon, @url, @data, @blocks, @category_id
FROM unnest(@user_ids::bigint[]) AS u (user_id)
ON CONFLICT (request_id, user_id, source_key) DO NOTHING
RETURNING id, user_id;

-- name: CountUnread :one
-- The badge, from the counters the triggers of 00012 maintain.
SELECT COALESCE((SELECT c.unread FROM inbox_counters c JOIN users u ON u.id = c.user_id
                 WHERE c.user_id = @user_id AND u.app_id = @app_id), 0)::bigint AS unread;

-- name: InboxCounters :one
-- The badge and the unfiltered total of a user's inbox, maintained by triggers (00012).
SELECT COALESCE(c.total, 0)::bigint AS total, COALESCE(c.unread, 0)::bigint AS unread
FROM users u LEFT JOIN inbox_counters c ON c.user_id = u.id
WHERE u.id = @user_id AND u.app_id = @app_id;

