-- name: CreateConsoleCode :exec
INSERT INTO console_codes (console_user_id, purpose, code_hash, expires_at)
VALUES (@console_user_id, @purpose, @code_hash, @expires_at);

-- name: UseConsoleCode :one
-- Consumes an unexpired, unused code of a purpose and returns its user.
UPDATE console_codes SET used_at = now()
WHERE code_hash = @code_hash AND purpose = @purpose AND used_at IS NULL AND expires_at > now()
RETURNING console_user_id;

-- name: ExpireConsoleCodes :exec
-- Voids the open codes of a purpose when a new one is sent, so only the latest works.
UPDATE console_codes SET used_at = now()
WHERE console_user_id = @console_user_id AND purpose = @purpose AND used_at IS NULL;

-- name: ReplaceRecoveryCodes :exec
WITH gone AS (DELETE FROM console_recovery_codes WHERE console_user_id = @console_user_id)
INSERT INTO console_recovery_codes (console_user_id, code_hash)
SELECT @console_user_id, unnest(@code_hashes::bytea[]);

-- name: UseRecoveryCode :execrows
UPDATE console_recovery_codes SET used_at = now()
WHERE console_user_id = @console_user_id AND code_hash = @code_hash AND used_at IS NULL;

-- name: DeleteRecoveryCodes :exec
DELETE FROM console_recovery_codes WHERE console_user_id = @console_user_id;

-- name: CountRecoveryCodes :one
SELECT count(*) FROM console_recovery_codes WHERE console_user_id = @console_user_id AND used_at IS NULL;
