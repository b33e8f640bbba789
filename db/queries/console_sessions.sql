-- name: CreateConsoleSession :one
INSERT INTO console_sessions (console_user_id, refresh_hash, expires_at, ip, user_agent)
VALUES (@console_user_id, @refresh_hash, @expires_at, @ip, @user_agent)
RETURNING *;

-- name: GetActiveConsoleSession :one
SELECT * FROM console_sessions
WHERE id = @id AND console_user_id = @console_user_id AND revoked_at IS NULL AND expires_at > now();

-- name: RotateConsoleSession :one
-- Swaps the refresh token; the old hash is kept to recognise a replayed copy.
UPDATE console_sessions
SET previous_refresh_hash = refresh_hash, refresh_hash = @new_hash, refreshed_at = now()
WHERE refresh_hash = @old_hash AND revoked_at IS NULL AND expires_at > now()
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
