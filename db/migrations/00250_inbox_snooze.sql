-- +goose Up

-- Snooze (issue 32): a user hides a notification until a time; it leaves the list and the
-- counts, then comes back unread. Snoozing sets snoozed_until and clears read_at and seen_at
-- (it comes back unread; retention treats it as unread meanwhile); the relay's
-- snooze waker (internal/inbox/snooze.go) clears snoozed_until at that time
-- and announces the row again (docs/decisions.md#snooze).
ALTER TABLE notifications ADD COLUMN snoozed_until timestamptz;

-- The waker's scan: only snoozed rows are in it, so it stays tiny.
CREATE INDEX notifications_snoozed ON notifications (snoozed_until) WHERE snoozed_until IS NOT NULL;

-- The counters of 00012 leave snoozed rows out of the total and the badge: snoozing is an
-- update that takes the row out (-1), waking one that puts it back (+1).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION inbox_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO inbox_counters AS c (user_id, total, unread)
        SELECT user_id,
               count(*) FILTER (WHERE deleted_at IS NULL AND snoozed_until IS NULL),
               count(*) FILTER (WHERE deleted_at IS NULL AND snoozed_until IS NULL AND seen_at IS NULL AND read_at IS NULL)
        FROM new_rows GROUP BY user_id ORDER BY user_id
        ON CONFLICT (user_id) DO UPDATE SET total = c.total + EXCLUDED.total, unread = c.unread + EXCLUDED.unread;
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE inbox_counters c SET total = c.total + d.total, unread = c.unread + d.unread
        FROM (
            SELECT user_id, sum(t)::int AS total, sum(u)::int AS unread FROM (
                SELECT user_id, (deleted_at IS NULL AND snoozed_until IS NULL)::int AS t,
                       (deleted_at IS NULL AND snoozed_until IS NULL AND seen_at IS NULL AND read_at IS NULL)::int AS u FROM new_rows
                UNION ALL
                SELECT user_id, -(deleted_at IS NULL AND snoozed_until IS NULL)::int,
                       -(deleted_at IS NULL AND snoozed_until IS NULL AND seen_at IS NULL AND read_at IS NULL)::int FROM old_rows
            ) x GROUP BY user_id
        ) d
        WHERE c.user_id = d.user_id AND (d.total <> 0 OR d.unread <> 0);
    ELSE
        UPDATE inbox_counters c SET total = c.total - d.total, unread = c.unread - d.unread
        FROM (
            SELECT user_id, count(*) FILTER (WHERE deleted_at IS NULL AND snoozed_until IS NULL)::int AS total,
                   count(*) FILTER (WHERE deleted_at IS NULL AND snoozed_until IS NULL AND seen_at IS NULL AND read_at IS NULL)::int AS unread
            FROM old_rows GROUP BY user_id
        ) d
        WHERE c.user_id = d.user_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
-- Snoozed rows come back first, so the restored counters stay exact.
UPDATE notifications SET snoozed_until = NULL WHERE snoozed_until IS NOT NULL;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION inbox_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO inbox_counters AS c (user_id, total, unread)
        SELECT user_id,
               count(*) FILTER (WHERE deleted_at IS NULL),
               count(*) FILTER (WHERE deleted_at IS NULL AND seen_at IS NULL AND read_at IS NULL)
        FROM new_rows GROUP BY user_id ORDER BY user_id
        ON CONFLICT (user_id) DO UPDATE SET total = c.total + EXCLUDED.total, unread = c.unread + EXCLUDED.unread;
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE inbox_counters c SET total = c.total + d.total, unread = c.unread + d.unread
        FROM (
            SELECT user_id, sum(t)::int AS total, sum(u)::int AS unread FROM (
                SELECT user_id, (deleted_at IS NULL)::int AS t,
                       (deleted_at IS NULL AND seen_at IS NULL AND read_at IS NULL)::int AS u FROM new_rows
                UNION ALL
                SELECT user_id, -(deleted_at IS NULL)::int,
                       -(deleted_at IS NULL AND seen_at IS NULL AND read_at IS NULL)::int FROM old_rows
            ) x GROUP BY user_id
        ) d
        WHERE c.user_id = d.user_id AND (d.total <> 0 OR d.unread <> 0);
    ELSE
        UPDATE inbox_counters c SET total = c.total - d.total, unread = c.unread - d.unread
        FROM (
            SELECT user_id, count(*) FILTER (WHERE deleted_at IS NULL)::int AS total,
                   count(*) FILTER (WHERE deleted_at IS NULL AND seen_at IS NULL AND read_at IS NULL)::int AS unread
            FROM old_rows GROUP BY user_id
        ) d
        WHERE c.user_id = d.user_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

DROP INDEX notifications_snoozed;
ALTER TABLE notifications DROP COLUMN snoozed_until;
