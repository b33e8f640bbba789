-- +goose Up

-- An app is an environment of a client: it owns users, notifications and configuration.
CREATE TABLE apps (
    id                    bigserial PRIMARY KEY,
    name                  text        NOT NULL,
    api_key               text        NOT NULL UNIQUE,
    -- SHA-256 of the API secret, compared in constant time on every app-mode call.
    api_secret_hash       bytea       NOT NULL,
    -- The API secret sealed with HERALD_SECRET_KEY: needed for HMAC signatures and for
    -- revealing it to console admins.
    api_secret_sealed     bytea       NOT NULL,
    secure_auth           boolean     NOT NULL DEFAULT false,
    hmac_auth             boolean     NOT NULL DEFAULT false,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now()
);

-- A user of an app, named by the caller's identifier.
CREATE TABLE users (
    id          bigserial PRIMARY KEY,
    app_id      bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    identifier  text        NOT NULL,
    profile     jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, identifier)
);

CREATE TABLE categories (
    id          bigserial PRIMARY KEY,
    app_id      bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    identifier  text        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, identifier)
);

-- The outbox: one row per accepted send. The relay starts the workflow that carries it.
CREATE TABLE notification_requests (
    id               uuid        PRIMARY KEY,
    app_id           bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    payload          jsonb       NOT NULL,
    idempotency_key  text,
    -- SHA-256 of the request body, to tell a retry from a different body under the same key.
    body_hash        bytea,
    -- accepted → started → completed | failed
    status           text        NOT NULL DEFAULT 'accepted',
    -- The Temporal workflow that carries this request (send/<id> or sends/<first id>).
    workflow_id      text,
    -- A relay that claimed the row owns its start until then.
    claimed_until    timestamptz,
    recipient_count  integer     NOT NULL DEFAULT 0,
    delivered_count  integer     NOT NULL DEFAULT 0,
    error            text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    completed_at     timestamptz
);
CREATE UNIQUE INDEX notification_requests_idempotency
    ON notification_requests (app_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
-- The relay scans only requests that still wait for a workflow.
CREATE INDEX notification_requests_pending
    ON notification_requests (created_at) WHERE status = 'accepted';
CREATE INDEX notification_requests_workflow ON notification_requests (workflow_id);

-- Inbox rows.
CREATE TABLE notifications (
    id           bigserial PRIMARY KEY,
    app_id       bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    request_id   uuid        NOT NULL,
    -- Distinguishes several inbox rows of one request for one user (workflow steps).
    source_key   text        NOT NULL DEFAULT '',
    title        text        NOT NULL DEFAULT '',
    message      text        NOT NULL DEFAULT '',
    icon         text        NOT NULL DEFAULT '',
    url          text        NOT NULL DEFAULT '',
    data         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    blocks       jsonb       NOT NULL DEFAULT '[]'::jsonb,
    category_id  bigint      REFERENCES categories (id) ON DELETE SET NULL,
    state        text,
    seen_at      timestamptz,
    read_at      timestamptz,
    clicked_at   timestamptz,
    deleted_at   timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (request_id, user_id, source_key)
);
-- The inbox list: newest first, stable under inserts.
CREATE INDEX notifications_inbox
    ON notifications (user_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
-- The badge: unread = neither seen nor read.
CREATE INDEX notifications_unread
    ON notifications (user_id) WHERE deleted_at IS NULL AND seen_at IS NULL AND read_at IS NULL;

-- +goose Down
DROP TABLE notifications;
DROP TABLE notification_requests;
DROP TABLE categories;
DROP TABLE users;
DROP TABLE apps;
