-- +goose Up

-- A client is an account: it owns apps and has console users as members with roles.
CREATE TABLE clients (
    id          bigserial PRIMARY KEY,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE client_users (
    id               bigserial PRIMARY KEY,
    client_id        bigint      NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    console_user_id  bigint      NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    role             text        NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (client_id, console_user_id)
);
CREATE INDEX client_users_user ON client_users (console_user_id);

-- An invitation to join a client, sent by email; only the code's hash is kept.
CREATE TABLE invitations (
    id           bigserial PRIMARY KEY,
    client_id    bigint      NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    email        text        NOT NULL,
    role         text        NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
    code_hash    bytea       NOT NULL UNIQUE,
    invited_by   bigint      REFERENCES console_users (id) ON DELETE SET NULL,
    expires_at   timestamptz NOT NULL,
    accepted_at  timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
-- At most one open invitation per address and client.
CREATE UNIQUE INDEX invitations_open ON invitations (client_id, lower(email)) WHERE accepted_at IS NULL;

-- Apps belong to a client. Apps made by `herald apps create` without --client and the demo
-- app of `herald dev` have none: they work on the developer API and are not in the console.
ALTER TABLE apps ADD COLUMN client_id bigint REFERENCES clients (id) ON DELETE CASCADE;
CREATE INDEX apps_client ON apps (client_id);

-- Command-line tokens: act on one client with their creator's current role there.
CREATE TABLE cli_tokens (
    id               bigserial PRIMARY KEY,
    client_id        bigint      NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    console_user_id  bigint      NOT NULL REFERENCES console_users (id) ON DELETE CASCADE,
    name             text        NOT NULL,
    token_hash       bytea       NOT NULL UNIQUE,
    -- The first characters of the token, to tell tokens apart in lists.
    token_prefix     text        NOT NULL,
    last_used_at     timestamptz,
    revoked_at       timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cli_tokens_client ON cli_tokens (client_id);

-- Uploaded files. Names are generated (random prefix + sanitised original name), so they
-- are unguessable and unique; the bytes live in the configured storage under folder/name.
CREATE TABLE files (
    id             bigserial PRIMARY KEY,
    client_id      bigint      NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    folder         text        NOT NULL CHECK (folder IN ('uploads', 'workflows', 'layouts')),
    name           text        NOT NULL UNIQUE,
    original_name  text        NOT NULL,
    content_type   text        NOT NULL,
    size           bigint      NOT NULL,
    created_by     bigint      REFERENCES console_users (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX files_client ON files (client_id);

-- +goose Down
DROP TABLE files;
DROP TABLE cli_tokens;
DROP INDEX apps_client;
ALTER TABLE apps DROP COLUMN client_id;
DROP TABLE invitations;
DROP TABLE client_users;
DROP TABLE clients;
