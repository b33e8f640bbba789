-- name: RenewMessageLease :execrows
-- The attempt that claimed a message (its attempt number) keeps it while it runs: its
-- heartbeat pushes the lease forward, so a worker that dies frees the message within one
-- lease instead of holding it for the activity's whole timeout.
UPDATE message_logs
SET locked_until = now() + make_interval(secs => @lease_seconds::float8)
WHERE id = @id AND status = 'queued' AND attempts = @attempts;
