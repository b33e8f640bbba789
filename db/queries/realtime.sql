-- name: NotificationsByIDs :many
-- Inbox rows by id for realtime events, with their owner and category; the columns of
-- GetInboxItems after user_id.
SELECT n.user_id, n.id, n.title, n.message, n.icon, n.url, n.data, n.blocks, n.state, n.created_at,
       n.seen_at, n.read_at, n.clicked_at, n.category_id,
       c.identifier AS category_identifier, c.name AS category_name
FROM notifications n
LEFT JOIN categories c ON c.id = n.category_id
WHERE n.app_id = @app_id AND n.id = ANY(@ids::bigint[]) AND n.deleted_at IS NULL
ORDER BY n.id;

-- name: CountUnreadByUsers :many
-- The unread count of each given user that has unread notifications (from the counters of
-- 00012).
SELECT c.user_id, c.unread::bigint AS unread
FROM inbox_counters c JOIN users u ON u.id = c.user_id
WHERE u.app_id = @app_id AND c.user_id = ANY(@user_ids::bigint[]) AND c.unread > 0;

-- name: NotifyPayloads :exec
-- Sends one Postgres notification per payload on a channel, in one round trip.
SELECT pg_notify(@channel::text, p) FROM unnest(@payloads::text[]) AS p;
