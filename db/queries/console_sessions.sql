-- name: CreateConsoleSession :one
INSERT INTO console_sessions (console_user_id, refresh_hash, expires_at, ip, user_agent)
VALUES (@console_user_id, @refresh_hash, @expires_at, @ip, @user_agent)
RETURNING *;

-- name: GetActiveConsoleSession :one
SELECT * FROM console_sessions
WHERE id = @id AND console_user_id = @console_user_id AND revoked_at IS NULL AND expires_at > now();

-- name: CreateConsoleRefreshToken :exec
INSERT INTO console_refresh_tokens (hash, session_id) VALUES (@hash, @session_id);

-- name: LockConsoleRefreshToken :one
-- A refresh token of the family of an open or closed session, locked with its session so
-- two refreshes of one family are answered one after the other.
SELECT t.session_id, t.used_at, t.grace_used, s.console_user_id,
       (s.revoked_at IS NULL AND s.expires_at > now())::boolean AS open,
       (t.used_at IS NOT NULL AND t.used_at > now() - @grace::interval)::boolean AS in_grace
FROM console_refresh_tokens t JOIN console_sessions s ON s.id = t.session_id
WHERE t.hash = @hash
FOR UPDATE OF t, s;

-- name: RetireConsoleRefreshTokens :exec
-- Rotation: the presented token (@hash) is used now and may get its grace; the other live
-- tokens of the family are retired without one.
UPDATE console_refresh_tokens
SET used_at = now(), grace_used = (hash <> @hash)
WHERE session_id = @session_id AND used_at IS NULL;

-- name: UseConsoleRefreshGrace :exec
UPDATE console_refresh_tokens SET grace_used = true WHERE hash = @hash;

-- name: TouchConsoleSession :exec
UPDATE console_sessions SET refreshed_at = now() WHERE id = @id;

-- name: RevokeConsoleSession :exec
UPDATE console_sessions SET revoked_at = now()
WHERE id = @id AND console_user_id = @console_user_id AND revoked_at IS NULL;

-- name: RevokeConsoleUserSessions :exec
UPDATE console_sessions SET revoked_at = now()
WHERE console_user_id = @console_user_id AND revoked_at IS NULL AND id <> @except_id;
