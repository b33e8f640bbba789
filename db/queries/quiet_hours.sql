-- A user's quiet hours (docs/preferences.md#quiet-hours). Scoped by app and user.

-- name: GetQuietHours :one
SELECT start_second, end_second, days FROM quiet_hours WHERE app_id = @app_id AND user_id = @user_id;

-- name: UpsertQuietHours :exec
INSERT INTO quiet_hours (app_id, user_id, start_second, end_second, days)
VALUES (@app_id, @user_id, @start_second, @end_second, @days)
ON CONFLICT (user_id) DO UPDATE SET start_second = EXCLUDED.start_second, end_second = EXCLUDED.end_second,
    days = EXCLUDED.days, updated_at = now();

-- name: DeleteQuietHours :exec
DELETE FROM quiet_hours WHERE app_id = @app_id AND user_id = @user_id;

-- name: DeliveryQuietHours :many
-- The quiet hours of some users, with the time zone of their profile.
SELECT q.user_id, q.start_second, q.end_second, q.days, COALESCE(u.profile->>'timezone', '')::text AS timezone
FROM quiet_hours q JOIN users u ON u.id = q.user_id
WHERE q.app_id = @app_id AND u.app_id = @app_id AND q.user_id = ANY(@user_ids::bigint[]);

-- name: DropHeldMessageLogs :exec
-- The messages a cancelled run held for quiet hours: they are never sent.
UPDATE message_logs
SET status = 'skipped', reason = @reason::text, locked_until = NULL, updated_at = now()
WHERE id = ANY(@ids::bigint[]) AND status = 'held';

-- name: HoldStepLog :exec
-- A flow's channel step held for quiet hours: its run sleeps until the window ends.
UPDATE message_logs SET status = 'held', reason = @reason::text, locked_until = NULL, updated_at = now()
WHERE id = @id AND status = 'queued';

-- name: ReleaseStepLog :exec
-- A held step whose run woke up (or a retried hold): queued again, to be decided anew.
UPDATE message_logs SET status = 'queued', updated_at = now() WHERE id = @id AND status = 'held';
