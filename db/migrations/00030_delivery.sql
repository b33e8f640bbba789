-- +goose Up

-- A configured provider of an app on one channel (an SMTP server, a webhook endpoint, a
-- SendGrid account…). config holds the fields of the kind's schema that are not secret;
-- the fields marked "x-secret" are kept apart, as one JSON object sealed with
-- HERALD_SECRET_KEY, and never leave the service unmasked.
CREATE TABLE provider_instances (
    id              bigserial PRIMARY KEY,
    app_id          bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    channel         text        NOT NULL,
    -- The provider kind's identifier in the catalogue, e.g. "smtp" or "webhook".
    provider        text        NOT NULL,
    name            text        NOT NULL,
    config          jsonb       NOT NULL DEFAULT '{}'::jsonb,
    secrets_sealed  bytea,
    enabled         boolean     NOT NULL DEFAULT true,
    -- Lower numbers are tried first when no route names the order.
    priority        integer     NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, channel, name)
);
CREATE INDEX provider_instances_channel ON provider_instances (app_id, channel, priority, id);

-- A route picks, for the sends that match its conditions, which instances of a channel
-- deliver and in which order; with failover the next instance is tried when one fails.
CREATE TABLE routes (
    id            bigserial PRIMARY KEY,
    app_id        bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    channel       text        NOT NULL,
    name          text        NOT NULL,
    instance_ids  bigint[]    NOT NULL,
    -- [{"field": "data.region", "operator": "eq", "value": "eu"}, …]; all must hold.
    conditions    jsonb       NOT NULL DEFAULT '[]'::jsonb,
    failover      boolean     NOT NULL DEFAULT true,
    -- Routes are evaluated by ascending priority; the first that matches wins.
    priority      integer     NOT NULL DEFAULT 0,
    enabled       boolean     NOT NULL DEFAULT true,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, channel, name)
);
CREATE INDEX routes_channel ON routes (app_id, channel, priority, id);

-- The message log: one row per recipient × channel of a send (× step of a user-defined
-- workflow), recording every decision and delivery attempt.
-- status: queued → sent → delivered | failed | skipped, then bounced/opened/clicked from
-- provider callbacks.
CREATE TABLE message_logs (
    id                   bigserial PRIMARY KEY,
    app_id               bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    request_id           uuid        NOT NULL,
    workflow_id          text        NOT NULL DEFAULT '',
    user_id              bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    user_identifier      text        NOT NULL,
    channel              text        NOT NULL,
    step_key             text        NOT NULL DEFAULT '',
    status               text        NOT NULL,
    -- Why nothing was delivered (skipped), e.g. "preference off".
    reason               text,
    -- The last error of a provider or of rendering.
    error                text,
    template_identifier  text,
    -- <requestId>:<user>:<channel>, passed to providers that accept one.
    idempotency_key      text        NOT NULL,
    provider             text,
    instance_id          bigint      REFERENCES provider_instances (id) ON DELETE SET NULL,
    provider_message_id  text,
    provider_response    text,
    attempts             integer     NOT NULL DEFAULT 0,
    -- An attempt in progress owns the row until then (a second attempt of the same message
    -- waits instead of sending twice).
    locked_until         timestamptz,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    sent_at              timestamptz,
    delivered_at         timestamptz,
    failed_at            timestamptz,
    bounced_at           timestamptz,
    opened_at            timestamptz,
    clicked_at           timestamptz,
    UNIQUE (request_id, user_id, channel, step_key)
);
CREATE INDEX message_logs_app_time ON message_logs (app_id, created_at DESC, id DESC);
-- Provider callbacks find their message by the provider's id.
CREATE INDEX message_logs_provider_message ON message_logs (instance_id, provider_message_id)
    WHERE provider_message_id IS NOT NULL;

-- +goose Down
DROP TABLE message_logs;
DROP TABLE routes;
DROP TABLE provider_instances;
