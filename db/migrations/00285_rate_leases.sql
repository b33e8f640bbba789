-- Leases of per-app concurrency limits (issue 28, item 5: quotas stay soft). A plan may
-- bound an app's send runs in flight and its provider calls in flight across every
-- process. A key (the limit and the app) has one row per slot, created on first use; a
-- holder (a run, a message) takes a free slot until it releases it or its lease expires,
-- so a process that dies mid-call frees its capacity after the lease instead of leaking it.
-- Slots are reused by UPDATEs of columns no index covers (HOT updates), so a busy key does
-- not bloat the index as an insert and a delete per call would. UNLOGGED like the other
-- rate limit tables: a crash empties it, which frees every lease once.

-- +goose Up
CREATE UNLOGGED TABLE rate_leases (
    key        text        NOT NULL,
    slot       integer     NOT NULL,
    holder     text,
    expires_at timestamptz NOT NULL DEFAULT '-infinity',
    PRIMARY KEY (key, slot)
);

-- acquire_rate_lease gives holder one of key's lim slots for ttl_ms milliseconds, or
-- renews the one it holds; false when every slot below lim is held by a live lease (or
-- is being taken or given back by another transaction at that instant: the caller tries
-- again later). FOR UPDATE SKIP LOCKED hands a free slot to one caller only.
-- +goose StatementBegin
CREATE FUNCTION acquire_rate_lease(k text, h text, lim bigint, ttl_ms bigint) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    until timestamptz := clock_timestamp() + make_interval(secs => ttl_ms / 1000.0);
    s integer;
BEGIN
    UPDATE rate_leases SET expires_at = until WHERE key = k AND slot < lim AND holder = h;
    IF FOUND THEN
        RETURN true;
    END IF;
    FOR attempt IN 1..2 LOOP
        SELECT slot INTO s FROM rate_leases
        WHERE key = k AND slot < lim AND (holder IS NULL OR expires_at < clock_timestamp())
        ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED;
        IF FOUND THEN
            UPDATE rate_leases SET holder = h, expires_at = until WHERE key = k AND slot = s;
            RETURN true;
        END IF;
        EXIT WHEN attempt = 2;
        -- The key's slots below lim, created on its first use and when its limit grows.
        INSERT INTO rate_leases (key, slot) SELECT k, g FROM generate_series(0, lim - 1) AS g
        ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
            RETURN false;
        END IF;
    END LOOP;
    RETURN false;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION acquire_rate_lease(text, text, bigint, bigint);
DROP TABLE rate_leases;
