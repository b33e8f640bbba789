-- +goose Up

-- A recurring trigger of a user-defined workflow: a Temporal Schedule (schedule_id,
-- recurring/<random>) whose every tick sends the stored body (notification.workflow,
-- sendTo, data) through the outbox like any send.
CREATE TABLE flow_schedules (
    id               bigserial PRIMARY KEY,
    app_id           bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    schedule_id      text        NOT NULL UNIQUE,
    flow_identifier  text        NOT NULL,
    cron             text        NOT NULL,
    timezone         text        NOT NULL,
    send_body        jsonb       NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flow_schedules_app ON flow_schedules (app_id, id);

-- +goose Down
DROP TABLE flow_schedules;
