-- Shared token buckets and counters (migration 00140), used by internal/platform/ratelimit
-- when rate limits are kept in Postgres. The keys name their owner (an app, a provider
-- instance, a client's month); the tables hold no tenant data.

-- name: TakeRateToken :one
-- Takes one token from a bucket of @burst tokens refilled at @rate per second, creating
-- it full. The clock is the server's, so processes on different hosts agree; the row lock
-- serialises the callers of one key. "at" never moves back, so a statement that waited on
-- the lock does not count the same elapsed time twice.
INSERT INTO rate_limit_buckets AS b (key, tokens, took, at)
VALUES (@key, (@burst::float8) - 1, true, statement_timestamp())
ON CONFLICT (key) DO UPDATE SET
    took = least(@burst::float8, b.tokens + greatest(0, extract(epoch FROM statement_timestamp() - b.at)::float8) * @rate::float8) >= 1,
    tokens = least(@burst::float8, b.tokens + greatest(0, extract(epoch FROM statement_timestamp() - b.at)::float8) * @rate::float8)
        - CASE WHEN least(@burst::float8, b.tokens + greatest(0, extract(epoch FROM statement_timestamp() - b.at)::float8) * @rate::float8) >= 1 THEN 1 ELSE 0 END,
    at = greatest(b.at, statement_timestamp())
RETURNING took, tokens;

-- name: ReserveRateCounter :one
-- Adds @n to a counter that starts at (and never reads below) @floor, unless the sum
-- would pass @lim; no row means refused.
INSERT INTO rate_limit_counters AS c (key, n, expires_at)
SELECT @key, greatest(@floor::bigint, 0) + @n::bigint, @expires_at::timestamptz
WHERE greatest(@floor::bigint, 0) + @n::bigint <= @lim::bigint
ON CONFLICT (key) DO UPDATE SET
    n = greatest(CASE WHEN c.expires_at < now() THEN 0 ELSE c.n END, @floor::bigint) + @n::bigint,
    expires_at = @expires_at::timestamptz
WHERE greatest(CASE WHEN c.expires_at < now() THEN 0 ELSE c.n END, @floor::bigint) + @n::bigint <= @lim::bigint
RETURNING n;

-- name: DeleteExpiredRateCounters :exec
DELETE FROM rate_limit_counters WHERE expires_at < now();

-- name: AcquireRateLease :one
-- Takes (or renews) @holder's lease of @key for @ttl_ms milliseconds when one of its @lim
-- slots is free (acquire_rate_lease, migration 00285).
SELECT acquire_rate_lease(@key::text, @holder::text, @lim::bigint, @ttl_ms::bigint)::bool AS ok;

-- name: RenewRateLease :execrows
-- Extends @holder's lease of @key to @ttl_ms milliseconds from now; no row when it has none.
UPDATE rate_leases SET expires_at = clock_timestamp() + make_interval(secs => (@ttl_ms::bigint)::float8 / 1000)
WHERE key = @key AND holder = @holder::text;

-- name: ReleaseRateLease :exec
-- Frees @holder's slot of @key for the next holder (an update, no new row).
UPDATE rate_leases SET holder = NULL, expires_at = '-infinity' WHERE key = @key AND holder = @holder::text;

-- name: DeleteExpiredRateLeases :exec
-- Drops the slots of keys unused for an hour (they are created again on use).
DELETE FROM rate_leases WHERE expires_at < now() - interval '1 hour';
