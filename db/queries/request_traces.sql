-- name: RequestTraceParents :many
-- The trace contexts of requests, oldest first, for the relay to start their workflow in.
SELECT id, trace_parent::text AS trace_parent FROM notification_requests
WHERE id = ANY(@ids::uuid[]) AND trace_parent IS NOT NULL
ORDER BY created_at, id;
