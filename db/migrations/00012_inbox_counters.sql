-- +goose Up

-- Per-user inbox counters, so the badge (unread) and the unfiltered total are one primary
-- key lookup instead of a count over the user's rows: a user with 100,000 notifications
-- costs what a user with ten does. Kept exact by statement-level triggers, which see every
-- change whatever code path makes it and aggregate a whole batch (a broadcast page, a
-- mark-all) into one update per user.
CREATE TABLE inbox_counters (
    user_id  bigint  PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    total    integer NOT NULL DEFAULT 0,
    unread   integer NOT NULL DEFAULT 0
);

-- +goose StatementBegin
CREATE FUNCTION inbox_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Deltas per user: +1 for each row as it is now, -1 for each row as it was. Users are
    -- locked in id order, so concurrent batches over the same users never deadlock.
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

CREATE TRIGGER notifications_counters_insert AFTER INSERT ON notifications
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_counters_apply();
CREATE TRIGGER notifications_counters_update AFTER UPDATE ON notifications
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_counters_apply();
CREATE TRIGGER notifications_counters_delete AFTER DELETE ON notifications
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION inbox_counters_apply();

-- Counters of the rows that exist already.
INSERT INTO inbox_counters (user_id, total, unread)
SELECT user_id,
       count(*) FILTER (WHERE deleted_at IS NULL),
       count(*) FILTER (WHERE deleted_at IS NULL AND seen_at IS NULL AND read_at IS NULL)
FROM notifications GROUP BY user_id;

-- +goose Down
DROP TRIGGER notifications_counters_delete ON notifications;
DROP TRIGGER notifications_counters_update ON notifications;
DROP TRIGGER notifications_counters_insert ON notifications;
DROP FUNCTION inbox_counters_apply();
DROP TABLE inbox_counters;
