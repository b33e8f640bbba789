-- +goose Up

-- One row per run of a user-defined workflow for one recipient of one send, so runs can be
-- found by cancellation key.
CREATE TABLE flow_runs (
    id                bigserial PRIMARY KEY,
    app_id            bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    request_id        uuid        NOT NULL,
    flow_identifier   text        NOT NULL,
    user_identifier   text        NOT NULL,
    cancellation_key  text,
    workflow_id       text        NOT NULL,
    -- running → completed | digested | throttled | failed | cancelled
    status            text        NOT NULL DEFAULT 'running',
    created_at        timestamptz NOT NULL DEFAULT now(),
    finished_at       timestamptz,
    UNIQUE (workflow_id)
);
CREATE INDEX flow_runs_cancellation ON flow_runs (app_id, cancellation_key) WHERE status = 'running';

-- +goose Down
DROP TABLE flow_runs;
