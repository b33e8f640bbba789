-- +goose Up

-- App settings used by the developer API: signing keys for secure mode, VAPID keys for web
-- push, and what the inbox SDK shows.
ALTER TABLE apps
    ADD COLUMN rsa_public_key          text,
    ADD COLUMN rsa_private_key_sealed  bytea,
    ADD COLUMN vapid_public_key        text,
    ADD COLUMN vapid_private_key_sealed bytea,
    ADD COLUMN enable_web_push         boolean NOT NULL DEFAULT false,
    ADD COLUMN hide_branding           boolean NOT NULL DEFAULT false;

-- One row per explicitly set (user, category, channel) pair; an unset pair is enabled.
-- category_id NULL is the user's default for notifications without a category.
CREATE TABLE preferences (
    id           bigserial PRIMARY KEY,
    app_id       bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category_id  bigint      REFERENCES categories (id) ON DELETE CASCADE,
    channel      text        NOT NULL,
    enabled      boolean     NOT NULL,
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX preferences_pair ON preferences (user_id, COALESCE(category_id, 0), channel);

CREATE TABLE topics (
    id          bigserial PRIMARY KEY,
    app_id      bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    identifier  text        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, identifier)
);

-- A user's subscription to a topic, with the channels it wants (empty = every channel).
CREATE TABLE topic_subscriptions (
    id          bigserial PRIMARY KEY,
    topic_id    bigint      NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    channels    text[]      NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (topic_id, user_id)
);
CREATE INDEX topic_subscriptions_user ON topic_subscriptions (user_id);

-- A user's device or installation, registered by /sdk/connect.
CREATE TABLE devices (
    id            bigserial PRIMARY KEY,
    app_id        bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    user_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_id     text        NOT NULL,
    device_type   text        NOT NULL,
    -- Push token for mobile push (FCM registration token or APNs device token).
    push_token    text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, device_id)
);

-- A browser PushSubscription of a device.
CREATE TABLE web_push_subscriptions (
    id               bigserial PRIMARY KEY,
    app_id           bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    user_id          bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_id        text        NOT NULL,
    endpoint         text        NOT NULL,
    p256dh           text        NOT NULL,
    auth             text        NOT NULL,
    expiration_time  timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, endpoint)
);
CREATE INDEX web_push_subscriptions_user ON web_push_subscriptions (user_id);

-- +goose Down
DROP TABLE web_push_subscriptions;
DROP TABLE devices;
DROP TABLE topic_subscriptions;
DROP TABLE topics;
DROP TABLE preferences;
ALTER TABLE apps
    DROP COLUMN rsa_public_key, DROP COLUMN rsa_private_key_sealed,
    DROP COLUMN vapid_public_key, DROP COLUMN vapid_private_key_sealed,
    DROP COLUMN enable_web_push, DROP COLUMN hide_branding;
