-- +goose Up

-- The circuit breaker of each provider instance, shared by every worker process (issue
-- 28): a worker whose calls to an instance go unanswered opens it here, and the others
-- hold their messages for the instance too instead of finding it dead on their own. One
-- row per open (or half-open) instance; a closed breaker has none. open_until is when the
-- next probe may go; probe_until, while set and in the future, is the lease of the one
-- worker probing. Workers cache a row for a second (activities/breaker.go).
CREATE TABLE provider_breakers (
    instance_id bigint      PRIMARY KEY REFERENCES provider_instances (id) ON DELETE CASCADE,
    open_until  timestamptz NOT NULL,
    cooldown_ms integer     NOT NULL,
    probe_until timestamptz,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE provider_breakers;
