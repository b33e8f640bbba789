-- Shared rate limits and quota reservations (issue "Performance and scale, round 2").
-- The per-app send rate limit, the per-provider-instance send rate and the blocks of a
-- client's monthly quota that API processes admit without a count are kept here, so every
-- process spends the same budget. The tables are UNLOGGED: their rows are a few bytes of
-- transient state rewritten on every send, not worth the WAL; after a crash Postgres
-- empties them, which refills the buckets once and makes the next quota reservation start
-- from the true count (the reserving process passes it as the floor).

-- +goose Up
CREATE UNLOGGED TABLE rate_limit_buckets (
    key    text PRIMARY KEY,
    tokens double precision NOT NULL,
    took   boolean NOT NULL,
    at     timestamptz NOT NULL
);

CREATE UNLOGGED TABLE rate_limit_counters (
    key        text PRIMARY KEY,
    n          bigint NOT NULL,
    expires_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE rate_limit_counters;
DROP TABLE rate_limit_buckets;
