-- The deliveries of event webhooks: one row per event × endpoint, written by the triggers of
-- migration 00230 (webhook_enqueue). The outbox of workflows/webhook and the delivery log.

-- name: DueWebhookEndpoints :many
-- The endpoints with deliveries due now and not held by an attempt: the relay starts (or
-- finds running) one delivery workflow for each.
SELECT DISTINCT d.endpoint_id, d.app_id
FROM webhook_deliveries d
JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled AND (e.blocked_until IS NULL OR e.blocked_until <= now())
WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now())
LIMIT @max_rows;

-- name: ClaimWebhookDeliveries :many
-- Takes up to @max_rows due deliveries of an endpoint, oldest event first, for the lease.
-- The lease is checked again on the row being updated, so of two claims racing for a row
-- (a retried activity while the first still runs) only one gets it.
-- An ordered endpoint's claim stops at its first pending delivery that is not due or held:
-- later events never overtake it.
WITH cand AS (
    SELECT d.id, d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now()) AS free
    FROM webhook_deliveries d
    WHERE d.endpoint_id = @endpoint_id AND d.status = 'pending'
      AND (@ordered::bool OR (d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now())))
    ORDER BY d.id
    LIMIT @max_rows
), pick AS (
    SELECT c.id FROM cand c
    WHERE c.free AND (NOT @ordered::bool OR NOT EXISTS (SELECT 1 FROM cand b WHERE b.id < c.id AND NOT b.free))
)
UPDATE webhook_deliveries d
SET locked_until = now() + make_interval(secs => @lease_seconds::float8), attempts = d.attempts + 1
FROM pick WHERE d.id = pick.id AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < now())
RETURNING d.*;

-- name: FinishWebhookAttempt :exec
-- Records one attempt: succeeded, failed for good, or pending again from @next_attempt_at.
UPDATE webhook_deliveries SET status = @status, next_attempt_at = @next_attempt_at, locked_until = NULL,
    last_attempt_at = @attempted_at::timestamptz, last_status = sqlc.narg(last_status), last_latency_ms = @latency_ms::int,
    last_response = @response, last_error = @error,
    delivered_at = CASE WHEN @status::text = 'succeeded' THEN now() ELSE delivered_at END,
    attempt_log = (CASE WHEN jsonb_array_length(attempt_log) >= 20 THEN attempt_log - 0 ELSE attempt_log END)
        || jsonb_build_array(jsonb_strip_nulls(jsonb_build_object('at', @attempted_at::timestamptz, 'status', sqlc.narg(last_status)::int,
            'latencyMs', @latency_ms::int, 'error', NULLIF(@error::text, ''))))
WHERE id = @id;

-- name: ListWebhookDeliveries :many
-- A page of an endpoint's delivery log (endpoint 0: every endpoint of the app), newest
-- first, optionally of one status; before_id pages on.
SELECT * FROM webhook_deliveries
WHERE app_id = @app_id AND (@endpoint_id::bigint = 0 OR endpoint_id = @endpoint_id)
  AND (@status::text = '' OR status = @status) AND (@before_id::bigint = 0 OR id < @before_id)
ORDER BY id DESC
LIMIT @max_rows;

-- name: GetWebhookDelivery :one
SELECT * FROM webhook_deliveries WHERE app_id = @app_id AND endpoint_id = @endpoint_id AND id = @id;

-- name: ResendWebhookDelivery :one
-- Queues one delivery again, now, with its webhook-id.
UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL
WHERE app_id = @app_id AND endpoint_id = @endpoint_id AND id = @id
RETURNING *;

-- name: ReplayWebhookDeliveries :execrows
-- Queues again every delivery of an endpoint created since @since, with their webhook-ids.
UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), locked_until = NULL
WHERE app_id = @app_id AND endpoint_id = @endpoint_id AND created_at >= @since AND status <> 'pending';
