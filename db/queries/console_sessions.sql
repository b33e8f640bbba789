-- name: CreateConsoleSession :one
INSERT INTO console_sessions (console_user_id, refresh_hash, expires_at, ip, user_agent)
VALUES (@console_user_id, @refresh_hash, @expires_at, @ip, @user_agent)
RETURNING *;

-- name: GetActiveConsoleSession :one
SELECT * FROM console_sessions
WHERE id = @id AND console_user_id = @console_user_id AND revoked_at IS NULL AND expires_at > now();

-- name: RotateConsoleSession :one
-- Swaps the refresh token; the old hash is kept to recognise a replayed copy. The previous
-- token is accepted once more within @grace of its rotation (a page reloaded while its
-- refresh was answered never stored the new cookie): it gets a new token too, and the grace
-- stays anchored to that first rotation.
UPDATE console_sessions
SET previous_refresh_hash = CASE WHEN refresh_hash = @old_hash THEN refresh_hash ELSE previous_refresh_hash END,
    refreshed_at = CASE WHEN refresh_hash = @old_hash THEN now() ELSE refreshed_at END,
    refresh_hash = @new_hash
WHERE (refresh_hash = @old_hash OR (previous_refresh_hash = @old_hash AND refreshed_at > now() - @grace::interval))
  AND revoked_at IS NULL AND expires_at > now()
RETURNING *;

-- name: RevokeConsoleSessionByPreviousHash :many
UPDATE console_sessions SET revoked_at = now()
WHERE previous_refresh_hash = @hash AND revoked_at IS NULL
RETURNING id, console_user_id;

-- name: RevokeConsoleSession :exec
UPDATE console_sessions SET revoked_at = now()
WHERE id = @id AND console_user_id = @console_user_id AND revoked_at IS NULL;

-- name: RevokeConsoleUserSessions :exec
UPDATE console_sessions SET revoked_at = now()
WHERE console_user_id = @console_user_id AND revoked_at IS NULL AND id <> @except_id;
