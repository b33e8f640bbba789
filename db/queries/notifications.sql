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


-- Queries of the developer API's inbox: reading items by id and changing their states.
-- Every statement is scoped by app and user. Changes lock rows in id order, so concurrent
-- single and bulk changes cannot deadlock, and skip rows already in the wanted state, so a
-- repeated change writes nothing.

-- name: GetInboxItems :many
SELECT n.id, n.title, n.message, n.icon, n.url, n.data, n.blocks, n.state, n.created_at,
       n.seen_at, n.read_at, n.clicked_at, n.category_id,
       c.identifier AS category_identifier, c.name AS category_name
FROM notifications n
LEFT JOIN categories c ON c.id = n.category_id
WHERE n.id = ANY(@ids::bigint[]) AND n.app_id = @app_id AND n.user_id = @user_id AND n.deleted_at IS NULL;

-- name: ChangeInboxItem :one
-- Applies one change to one item and returns the item's flags as they were before it; no
-- row means the item is not in this user's inbox. Each of seen, read and clicked is 1 (set,
-- keeping an earlier time), -1 (clear) or 0 (keep); set_state replaces state. The update
-- runs only when something changes.
WITH old AS (
    SELECT o.id, o.seen_at, o.read_at, o.clicked_at, o.state FROM notifications o
    WHERE o.id = @id AND o.app_id = @app_id AND o.user_id = @user_id AND o.deleted_at IS NULL
    FOR UPDATE
), upd AS (
    UPDATE notifications n SET
        seen_at    = CASE @seen::int WHEN 1 THEN COALESCE(n.seen_at, now()) WHEN -1 THEN NULL ELSE n.seen_at END,
        read_at    = CASE @read::int WHEN 1 THEN COALESCE(n.read_at, now()) WHEN -1 THEN NULL ELSE n.read_at END,
        clicked_at = CASE @clicked::int WHEN 1 THEN COALESCE(n.clicked_at, now()) WHEN -1 THEN NULL ELSE n.clicked_at END,
        state      = CASE WHEN @set_state::bool THEN @state::text ELSE n.state END
    FROM old
    WHERE n.id = old.id AND (
        (@seen::int = 1 AND old.seen_at IS NULL) OR (@seen::int = -1 AND old.seen_at IS NOT NULL) OR
        (@read::int = 1 AND old.read_at IS NULL) OR (@read::int = -1 AND old.read_at IS NOT NULL) OR
        (@clicked::int = 1 AND old.clicked_at IS NULL) OR (@clicked::int = -1 AND old.clicked_at IS NOT NULL) OR
        (@set_state::bool AND old.state IS DISTINCT FROM @state::text))
    RETURNING n.id
)
SELECT old.id, old.seen_at, old.read_at, old.clicked_at, old.state FROM old;

-- name: DeleteInboxItem :one
-- Removes an item from the inbox and returns when it was removed before (NULL: now); no row
-- means the item is not this user's.
WITH old AS (
    SELECT o.id, o.deleted_at FROM notifications o
    WHERE o.id = @id AND o.app_id = @app_id AND o.user_id = @user_id
    FOR UPDATE
), upd AS (
    UPDATE notifications n SET deleted_at = now()
    FROM old WHERE n.id = old.id AND old.deleted_at IS NULL
    RETURNING n.id
)
SELECT old.id, old.deleted_at FROM old;

-- name: MarkInboxPageSeen :many
-- Marks one page of the inbox list (newest first) seen; returns the ids that changed.
WITH page AS (
    SELECT p.id FROM notifications p
    WHERE p.app_id = @app_id AND p.user_id = @user_id AND p.deleted_at IS NULL
    ORDER BY p.created_at DESC, p.id DESC
    LIMIT @max_rows OFFSET @skip_rows
), locked AS (
    SELECT n.id FROM notifications n
    WHERE n.id IN (SELECT id FROM page) AND n.seen_at IS NULL AND n.deleted_at IS NULL
    ORDER BY n.id
    FOR UPDATE
)
UPDATE notifications n SET seen_at = now()
FROM locked WHERE n.id = locked.id AND n.seen_at IS NULL
RETURNING n.id;

-- name: MarkFirstUnseenSeen :many
-- The deprecated bulk form: marks the newest max_rows unseen items seen.
WITH page AS (
    SELECT p.id FROM notifications p
    WHERE p.app_id = @app_id AND p.user_id = @user_id AND p.deleted_at IS NULL AND p.seen_at IS NULL
    ORDER BY p.created_at DESC, p.id DESC
    LIMIT @max_rows
), locked AS (
    SELECT n.id FROM notifications n
    WHERE n.id IN (SELECT id FROM page) AND n.seen_at IS NULL AND n.deleted_at IS NULL
    ORDER BY n.id
    FOR UPDATE
)
UPDATE notifications n SET seen_at = now()
FROM locked WHERE n.id = locked.id AND n.seen_at IS NULL
RETURNING n.id;

-- name: MarkInboxPageRead :many
-- Marks one page of the inbox list (newest first) read; returns the ids that changed.
WITH page AS (
    SELECT p.id FROM notifications p
    WHERE p.app_id = @app_id AND p.user_id = @user_id AND p.deleted_at IS NULL
    ORDER BY p.created_at DESC, p.id DESC
    LIMIT @max_rows OFFSET @skip_rows
), locked AS (
    SELECT n.id FROM notifications n
    WHERE n.id IN (SELECT id FROM page) AND n.read_at IS NULL AND n.deleted_at IS NULL
    ORDER BY n.id
    FOR UPDATE
)
UPDATE notifications n SET read_at = now()
FROM locked WHERE n.id = locked.id AND n.read_at IS NULL
RETURNING n.id;

-- name: MarkInboxAllRead :execrows
WITH locked AS (
    SELECT l.id FROM notifications l
    WHERE l.app_id = @app_id AND l.user_id = @user_id AND l.deleted_at IS NULL AND l.read_at IS NULL
    ORDER BY l.id
    FOR UPDATE
)
UPDATE notifications n SET read_at = now()
FROM locked WHERE n.id = locked.id AND n.read_at IS NULL;

-- name: MarkInboxAllDeleted :execrows
WITH locked AS (
    SELECT l.id FROM notifications l
    WHERE l.app_id = @app_id AND l.user_id = @user_id AND l.deleted_at IS NULL
    ORDER BY l.id
    FOR UPDATE
)
UPDATE notifications n SET deleted_at = now()
FROM locked WHERE n.id = locked.id AND n.deleted_at IS NULL;

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
