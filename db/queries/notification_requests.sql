-- name: InsertRequest :exec
INSERT INTO notification_requests (id, app_id, payload, idempotency_key, body_hash, recipient_count, send_at, trace_parent, critical)
VALUES (@id, @app_id, @payload, @idempotency_key, @body_hash, @recipient_count, @send_at, @trace_parent, @critical);

-- name: GetRequestByIdempotencyKey :one
SELECT id, body_hash, created_at FROM notification_requests
WHERE app_id = @app_id AND idempotency_key = @idempotency_key;

-- name: ExpireIdempotencyKey :exec
-- Frees a key whose 24 hours are over, so it can be used again.
UPDATE notification_requests SET idempotency_key = NULL
WHERE app_id = @app_id AND idempotency_key = @idempotency_key AND created_at < @before;

-- name: ClaimFreshRequests :many
-- Takes requests to send now that no relay has assigned to a workflow yet, oldest first.
SELECT id, app_id FROM notification_requests
WHERE status = 'accepted' AND workflow_id IS NULL AND send_at IS NULL
ORDER BY created_at, id
LIMIT @max_rows
FOR UPDATE SKIP LOCKED;

-- name: NextWaitingApp :one
-- The first app after @after_app (by id) with fresh requests waiting for the relay; 0
-- when there is none (the relay then starts again from the lowest id).
SELECT COALESCE(min(app_id), 0)::bigint AS app_id FROM notification_requests
WHERE status = 'accepted' AND workflow_id IS NULL AND send_at IS NULL AND app_id > @after_app::bigint;

-- name: ClaimFreshRequestsOfApp :many
-- Takes one app's oldest requests to send now that no relay has assigned yet (the relay
-- serves the apps round-robin and packs one app's requests per run).
SELECT id, app_id FROM notification_requests
WHERE status = 'accepted' AND workflow_id IS NULL AND send_at IS NULL AND app_id = @app_id
ORDER BY created_at, id
LIMIT @max_rows
FOR UPDATE SKIP LOCKED;

-- name: NextCriticalApp :one
-- The app of the oldest critical request to send now that no relay has assigned yet; 0 when
-- there is none. The relay serves it before the round-robin (issue 28, item 4).
SELECT COALESCE((SELECT app_id FROM notification_requests
    WHERE status = 'accepted' AND workflow_id IS NULL AND send_at IS NULL AND critical
    ORDER BY created_at, id LIMIT 1), 0)::bigint AS app_id;

-- name: ClaimFreshCriticalOfApp :many
-- Takes one app's oldest critical requests to send now that no relay has assigned yet.
SELECT id, app_id FROM notification_requests
WHERE status = 'accepted' AND workflow_id IS NULL AND send_at IS NULL AND critical AND app_id = @app_id
ORDER BY created_at, id
LIMIT @max_rows
FOR UPDATE SKIP LOCKED;

-- name: ClaimFreshScheduled :many
-- Takes scheduled requests whose schedule workflow was not started yet.
SELECT id, app_id FROM notification_requests
WHERE status = 'accepted' AND workflow_id IS NULL AND send_at IS NOT NULL
ORDER BY created_at, id
LIMIT @max_rows
FOR UPDATE SKIP LOCKED;

-- name: AssignWorkflow :exec
UPDATE notification_requests
SET workflow_id = @workflow_id, claimed_until = now() + make_interval(secs => @lease_seconds::float8), updated_at = now()
WHERE id = ANY(@ids::uuid[]);

-- name: StaleWorkflows :many
-- Workflows whose start failed or whose relay died: their lease ran out while still accepted.
SELECT DISTINCT workflow_id::text FROM notification_requests
WHERE status = 'accepted' AND workflow_id IS NOT NULL AND claimed_until < now()
LIMIT @max_rows;

-- name: ReclaimWorkflow :many
-- Renews the lease on every request of a workflow; empty when another relay got there first.
UPDATE notification_requests
SET claimed_until = now() + make_interval(secs => @lease_seconds::float8), updated_at = now()
WHERE workflow_id = @workflow_id AND status = 'accepted' AND claimed_until < now()
RETURNING id, app_id, created_at, critical;

-- name: MarkWorkflowStarted :exec
-- A send run moves its requests to started; a schedule run to scheduled.
UPDATE notification_requests
SET status = CASE WHEN send_at IS NULL THEN 'started' ELSE 'scheduled' END, claimed_until = NULL, updated_at = now()
WHERE workflow_id = @workflow_id AND status = 'accepted';

-- name: DelayWorkflowRetry :exec
UPDATE notification_requests
SET claimed_until = now() + make_interval(secs => @delay_seconds::float8), error = @error, updated_at = now()
WHERE workflow_id = @workflow_id AND status = 'accepted';

-- name: GetRequestsByIDs :many
SELECT id, app_id, payload, status, delivered_count FROM notification_requests WHERE id = ANY(@ids::uuid[]);

-- name: GetRequest :one
SELECT * FROM notification_requests WHERE id = @id;

-- name: RecordDelivered :exec
UPDATE notification_requests
SET delivered_count = delivered_count + @delivered::int,
    status = CASE WHEN @done::bool THEN 'completed' ELSE status END,
    completed_at = CASE WHEN @done::bool THEN now() ELSE completed_at END,
    updated_at = now()
WHERE id = @id;

-- name: FailRequest :exec
UPDATE notification_requests
SET status = 'failed', error = @error, completed_at = now(), updated_at = now()
WHERE id = @id;

-- name: RequestTraceParents :many
-- The trace contexts of requests, oldest first, for the relay to start their workflow in.
SELECT id, trace_parent::text AS trace_parent FROM notification_requests
WHERE id = ANY(@ids::uuid[]) AND trace_parent IS NOT NULL
ORDER BY created_at, id;

-- name: OutboxBacklog :one
-- Requests waiting for their workflow to start (the relay's backlog), and the age in
-- seconds of the oldest one.
SELECT count(*)::bigint AS waiting,
       COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest_seconds
FROM notification_requests WHERE status = 'accepted' AND send_at IS NULL;
