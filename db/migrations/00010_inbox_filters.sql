-- +goose NO TRANSACTION
-- +goose Up

-- Indexes of the developer API's inbox filters and of the foreign keys its deletes follow.
-- Built CONCURRENTLY (outside a transaction) so applying them to a large live table does not
-- block sends; IF NOT EXISTS lets an interrupted run be repeated.

-- filter=unread (not read), newest first: the list walks the index and stops at the page.
CREATE INDEX CONCURRENTLY IF NOT EXISTS notifications_inbox_not_read
    ON notifications (user_id, created_at DESC, id DESC) WHERE deleted_at IS NULL AND read_at IS NULL;

-- filter=unseen and the deprecated "mark the first 15 unseen as seen".
CREATE INDEX CONCURRENTLY IF NOT EXISTS notifications_inbox_unseen
    ON notifications (user_id, created_at DESC, id DESC) WHERE deleted_at IS NULL AND seen_at IS NULL;

-- filter=interacted (clicked or a state set): usually a small part of an inbox.
CREATE INDEX CONCURRENTLY IF NOT EXISTS notifications_inbox_interacted
    ON notifications (user_id, created_at DESC, id DESC)
    WHERE deleted_at IS NULL AND (clicked_at IS NOT NULL OR state IS NOT NULL);

-- category=<identifier>, newest first. Not partial: it also serves the ON DELETE CASCADE
-- from users, which must find a deleted user's rows including those already deleted from
-- the inbox (the other user_id indexes skip them).
CREATE INDEX CONCURRENTLY IF NOT EXISTS notifications_user_category
    ON notifications (user_id, category_id, created_at DESC, id DESC);

-- ON DELETE SET NULL from categories.
CREATE INDEX CONCURRENTLY IF NOT EXISTS notifications_category
    ON notifications (category_id) WHERE category_id IS NOT NULL;

-- ON DELETE CASCADE from categories.
CREATE INDEX CONCURRENTLY IF NOT EXISTS preferences_category
    ON preferences (category_id) WHERE category_id IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS preferences_category;
DROP INDEX CONCURRENTLY IF EXISTS notifications_category;
DROP INDEX CONCURRENTLY IF EXISTS notifications_user_category;
DROP INDEX CONCURRENTLY IF EXISTS notifications_inbox_interacted;
DROP INDEX CONCURRENTLY IF EXISTS notifications_inbox_unseen;
DROP INDEX CONCURRENTLY IF EXISTS notifications_inbox_not_read;
