-- name: OutboxBacklog :one
-- Requests waiting for their workflow to start (the relay's backlog), and the age in
-- seconds of the oldest one.
SELECT count(*)::bigint AS waiting,
       COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest_seconds
FROM notification_requests WHERE status = 'accepted' AND send_at IS NULL;
