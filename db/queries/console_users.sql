-- name: CreateConsoleUser :one
INSERT INTO console_users (email, name, password_hash, email_verified_at)
VALUES (@email, @name, @password_hash, @email_verified_at)
RETURNING *;

-- name: GetConsoleUser :one
SELECT * FROM console_users WHERE id = @id;

-- name: GetConsoleUserByEmail :one
SELECT * FROM console_users WHERE lower(email) = lower(@email);

-- name: MarkConsoleUserVerified :exec
UPDATE console_users SET email_verified_at = COALESCE(email_verified_at, now()), updated_at = now()
WHERE id = @id;

-- name: SetConsoleUserPassword :exec
UPDATE console_users SET password_hash = @password_hash, updated_at = now() WHERE id = @id;

-- name: UpdateConsoleUserName :one
UPDATE console_users SET name = @name, updated_at = now() WHERE id = @id RETURNING *;

-- name: MergeConsoleUserOnboarding :one
UPDATE console_users SET onboarding = onboarding || @progress::jsonb, updated_at = now()
WHERE id = @id RETURNING *;

-- name: SetPendingTOTP :exec
UPDATE console_users SET totp_pending_sealed = @sealed, updated_at = now() WHERE id = @id;

-- name: EnableTOTP :exec
-- Promotes the pending secret; last_step records the code that confirmed it.
UPDATE console_users
SET totp_secret_sealed = totp_pending_sealed, totp_pending_sealed = NULL, totp_enabled = true,
    totp_last_step = @last_step, updated_at = now()
WHERE id = @id AND totp_pending_sealed IS NOT NULL;

-- name: DisableTOTP :exec
UPDATE console_users
SET totp_secret_sealed = NULL, totp_pending_sealed = NULL, totp_enabled = false, totp_last_step = 0, updated_at = now()
WHERE id = @id;

-- name: UseTOTPStep :execrows
-- Accepts a code's step only when it is newer than every step accepted before.
UPDATE console_users SET totp_last_step = @step, updated_at = now()
WHERE id = @id AND totp_last_step < @step;

-- name: GetConsoleIdentity :one
SELECT * FROM console_identities WHERE provider = @provider AND subject = @subject;

-- name: CreateConsoleIdentity :exec
INSERT INTO console_identities (console_user_id, provider, subject) VALUES (@console_user_id, @provider, @subject)
ON CONFLICT (provider, subject) DO NOTHING;

-- name: ReclaimConsoleUser :exec
-- The address was proven by someone who may not have chosen the account's password: the
-- password is replaced (NULL: none), 2FA is turned off and the address is verified.
UPDATE console_users
SET password_hash = @password_hash, totp_secret_sealed = NULL, totp_pending_sealed = NULL, totp_enabled = false,
    totp_last_step = 0, email_verified_at = COALESCE(email_verified_at, now()), updated_at = now()
WHERE id = @id;
