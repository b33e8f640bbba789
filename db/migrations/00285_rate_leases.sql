-- Leases of per-app concurrency limits (issue 28, item 5: quotas stay soft). A plan may
-- bound an app's send runs in flight and its provider calls in flight across every
-- process; each run or call holds a row (key = the limit and app, holder = the run or
-- message) until it ends or its lease expires, so a process that dies mid-call frees its
-- capacity after the lease instead of leaking it. UNLOGGED like the other rate limit
-- tables: a crash empties it, which frees every lease once.

-- +goose Up
CREATE UNLOGGED TABLE rate_leases (
    key        text        NOT NULL,
    holder     text        NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (key, holder)
);

-- acquire_rate_lease gives holder one of key's lim leases for ttl_ms milliseconds, or
-- renews the one it holds; false when lim live leases are held by others. An advisory
-- lock on the key serialises its callers; each statement of the function sees the rows
-- committed before it, so two processes never both take the last lease.
-- +goose StatementBegin
CREATE FUNCTION acquire_rate_lease(k text, h text, lim bigint, ttl_ms bigint) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    until timestamptz := clock_timestamp() + make_interval(secs => ttl_ms / 1000.0);
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('rate_lease:' || k, 0));
    DELETE FROM rate_leases WHERE key = k AND expires_at < clock_timestamp();
    UPDATE rate_leases SET expires_at = until WHERE key = k AND holder = h;
    IF FOUND THEN
        RETURN true;
    END IF;
    SELECT count(*) INTO n FROM rate_leases WHERE key = k;
    IF n >= lim THEN
        RETURN false;
    END IF;
    INSERT INTO rate_leases (key, holder, expires_at) VALUES (k, h, until);
    RETURN true;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION acquire_rate_lease(text, text, bigint, bigint);
DROP TABLE rate_leases;
