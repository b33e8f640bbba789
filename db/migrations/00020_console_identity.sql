-- +goose Up

-- A person who signs in to the console. Email is unique case-insensitively.
CREATE TABLE console_users (
    id                   bigserial PRIMARY KEY,
    email                text        NOT NULL,
    name                 text        NOT NULL DEFAULT '',
    -- argon2id in PHC string form; NULL for accounts created through code-host sign-in.
    password_hash        text,
    email_verified_at    timestamptz,
    -- TOTP secret sealed with HERALD_SECRET_KEY; pending until confirmed by a valid code.
    totp_secret_sealed   bytea,
    totp_pending_sealed  bytea,
    totp_enabled         boolean     NOT NULL DEFAULT false,
    -- The last 30-second step whose code was accepted: a code is never accepted twice.
    totp_last_step       bigint      NOT NULL DEFAULT 0,
    onboarding           jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX console_users_email ON console_users (lower(email));

-- One-time codes sent by email: address verification and password reset. Only hashes.
CREATE TABLE console_codes (
    id               bigserial PRIMARY KEY,
    console_user_id  bigint      NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    purpose          text        NOT NULL CHECK (purpose IN ('verify', 'reset')),
    code_hash        bytea       NOT NULL UNIQUE,
    expires_at       timestamptz NOT NULL,
    used_at          timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_codes_user ON console_codes (console_user_id, purpose);

-- A signed-in console session. Access tokens name the session; the refresh token rotates
-- on every use and only its hash is kept. Presenting the previous refresh token again
-- (a stolen copy) revokes the session.
CREATE TABLE console_sessions (
    id                     bigserial PRIMARY KEY,
    console_user_id        bigint      NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    refresh_hash           bytea       NOT NULL UNIQUE,
    previous_refresh_hash  bytea,
    expires_at             timestamptz NOT NULL,
    revoked_at             timestamptz,
    ip                     text        NOT NULL DEFAULT '',
    user_agent             text        NOT NULL DEFAULT '',
    created_at             timestamptz NOT NULL DEFAULT now(),
    refreshed_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_sessions_user ON console_sessions (console_user_id);
CREATE INDEX console_sessions_previous ON console_sessions (previous_refresh_hash);

-- Single-use 2FA recovery codes, hashed.
CREATE TABLE console_recovery_codes (
    id               bigserial PRIMARY KEY,
    console_user_id  bigint      NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    code_hash        bytea       NOT NULL,
    used_at          timestamptz,
    UNIQUE (console_user_id, code_hash)
);

-- A console user's account at an external code host (OAuth2 sign-in).
CREATE TABLE console_identities (
    id               bigserial PRIMARY KEY,
    console_user_id  bigint      NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    provider         text        NOT NULL,
    subject          text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, subject)
);

-- Failed sign-in attempts per key ("account:<email>", "ip:<address>"), shared by every API
-- process so throttling holds behind a load balancer.
CREATE TABLE auth_throttle (
    key           text        PRIMARY KEY,
    failures      integer     NOT NULL DEFAULT 0,
    window_start  timestamptz NOT NULL DEFAULT now(),
    locked_until  timestamptz
);

-- +goose Down
DROP TABLE auth_throttle;
DROP TABLE console_identities;
DROP TABLE console_recovery_codes;
DROP TABLE console_sessions;
DROP TABLE console_codes;
DROP TABLE console_users;
