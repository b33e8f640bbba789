-- name: NotificationsByIDs :many
-- Inbox rows by id for realtime events, with their category; the same columns as ListInbox.
SELECT n.*, c.identifier AS category_identifier, c.name AS category_name
FROM notifications n
LEFT JOIN categories c ON c.id = n.category_id
WHERE n.app_id = @app_id AND n.id = ANY(@ids::bigint[]) AND n.deleted_at IS NULL
ORDER BY n.id;

-- name: CountUnreadByUsers :many
-- The unread count of each given user that has unread notifications.
SELECT user_id, count(*) AS unread
FROM notifications
WHERE app_id = @app_id AND user_id = ANY(@user_ids::bigint[])
  AND deleted_at IS NULL AND seen_at IS NULL AND read_at IS NULL
GROUP BY user_id;

-- name: NotifyPayloads :exec
-- Sends one Postgres notification per payload on a channel, in one round trip.
SELECT pg_notify(@channel::text, p) FROM unnest(@payloads::text[]) AS p;
