-- name: GetThrottle :one
SELECT * FROM auth_throttle WHERE key = @key;

-- name: RecordThrottleFailure :one
-- Counts a failure in the current window (a new window starts when the old one is over) and
-- locks the key once the count reaches the limit.
INSERT INTO auth_throttle AS t (key, failures, window_start)
VALUES (@key, 1, now())
ON CONFLICT (key) DO UPDATE SET
    failures = CASE WHEN t.window_start < now() - make_interval(secs => @window_seconds::float8) THEN 1 ELSE t.failures + 1 END,
    window_start = CASE WHEN t.window_start < now() - make_interval(secs => @window_seconds::float8) THEN now() ELSE t.window_start END
RETURNING *;

-- name: LockThrottle :exec
UPDATE auth_throttle SET locked_until = now() + make_interval(secs => @lock_seconds::float8) WHERE key = @key;

-- name: ClearThrottle :exec
DELETE FROM auth_throttle WHERE key = @key;
