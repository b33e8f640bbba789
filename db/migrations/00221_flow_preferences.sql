-- +goose Up
-- A user's switches for one workflow ("flow" inside): channel '' is the whole workflow, a
-- channel name that channel of it. The most specific switch wins (docs/delivery.md).
CREATE TABLE flow_preferences (
    app_id      bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    flow_id     bigint      NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
    channel     text        NOT NULL DEFAULT '',
    enabled     boolean     NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, flow_id, channel)
);
CREATE INDEX flow_preferences_flow ON flow_preferences (flow_id);

-- +goose Down
DROP TABLE flow_preferences;
