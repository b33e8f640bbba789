-- The shared circuit breakers of provider instances (migration 00270, internal/delivery/pipeline/breaker.go and shared.go).
-- The key is a provider instance id the worker took from its app's own routes.

-- name: GetProviderBreaker :one
SELECT open_until, cooldown_ms, probe_until FROM provider_breakers WHERE instance_id = @instance_id;

-- name: OpenProviderBreaker :exec
-- Opens an instance's breaker until @open_until (or keeps a later one another worker set)
-- and ends any probe.
INSERT INTO provider_breakers AS b (instance_id, open_until, cooldown_ms, probe_until, updated_at)
VALUES (@instance_id, @open_until, @cooldown_ms, NULL, now())
ON CONFLICT (instance_id) DO UPDATE SET
    open_until = greatest(b.open_until, EXCLUDED.open_until),
    cooldown_ms = greatest(b.cooldown_ms, EXCLUDED.cooldown_ms),
    probe_until = NULL,
    updated_at = now();

-- name: CloseProviderBreaker :exec
DELETE FROM provider_breakers WHERE instance_id = @instance_id;

-- name: TakeProviderBreakerProbe :one
-- Takes the probe of an instance whose cool-down is over, for @lease_seconds, unless another
-- worker holds it; no row means not taken.
UPDATE provider_breakers
SET probe_until = now() + make_interval(secs => @lease_seconds::float8), updated_at = now()
WHERE instance_id = @instance_id AND open_until <= now() AND (probe_until IS NULL OR probe_until <= now())
RETURNING instance_id;

-- name: HeldChannels :many
-- The app's channels whose every enabled instance has an open breaker whose cool-down is not
-- over, or whose probe is out (a worker holds its lease, probe_until), one row per
-- instance (name, provider, until when: the cool-down's end, or the probe lease's): a send
-- run holds its new messages of those channels until the earliest, without a batch to
-- learn it. A half-open breaker with no probe out is not a hold: the run's batch may be
-- its probe.
SELECT i.channel, i.name, i.provider,
    (CASE WHEN b.open_until > now() THEN b.open_until ELSE b.probe_until END)::timestamptz AS open_until
FROM provider_instances i JOIN provider_breakers b ON b.instance_id = i.id
    AND (b.open_until > now() OR b.probe_until > now())
WHERE i.app_id = @app_id AND i.enabled
  AND NOT EXISTS (
    SELECT 1 FROM provider_instances o
    LEFT JOIN provider_breakers ob ON ob.instance_id = o.id AND (ob.open_until > now() OR ob.probe_until > now())
    WHERE o.app_id = i.app_id AND o.channel = i.channel AND o.enabled AND ob.instance_id IS NULL)
ORDER BY i.channel, i.priority, i.id;
