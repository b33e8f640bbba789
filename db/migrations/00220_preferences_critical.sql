-- +goose Up
-- Critical categories and flows (security alerts, receipts, one-time codes) are delivered
-- whatever the recipient's opt-outs say (docs/preferences.md).
ALTER TABLE categories ADD COLUMN critical boolean NOT NULL DEFAULT false;
ALTER TABLE flows ADD COLUMN critical boolean NOT NULL DEFAULT false;

-- A user's switch for a whole channel ("no SMS, ever"), above every category. One row per
-- explicitly set (user, channel); an unset channel is on.
CREATE TABLE channel_preferences (
    app_id      bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    channel     text        NOT NULL,
    enabled     boolean     NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, channel)
);

-- +goose Down
DROP TABLE channel_preferences;
ALTER TABLE flows DROP COLUMN critical;
ALTER TABLE categories DROP COLUMN critical;
