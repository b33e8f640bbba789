-- name: RenewMessageLease :execrows
-- The attempt that claimed a message (its attempt number) keeps it while it runs: its
-- heartbeat pushes the lease forward, so a worker that dies frees the message within one
-- lease instead of holding it for the activity's whole timeout.
UPDATE message_logs
SET locked_until = now() + make_interval(secs => @lease_seconds::float8)
WHERE id = @id AND status = 'queued' AND attempts = @attempts;

-- name: RenewMessageLeases :execrows
-- RenewMessageLease for the rows a batch attempt holds (each with its attempt number).
UPDATE message_logs AS m
SET locked_until = now() + make_interval(secs => @lease_seconds::float8)
FROM (SELECT unnest(@ids::bigint[]) AS id, unnest(@attempts::integer[]) AS attempts) AS r
WHERE m.id = r.id AND m.status = 'queued' AND m.attempts = r.attempts;
