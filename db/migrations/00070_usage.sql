-- +goose Up

-- Sends counted per app and month (UTC). The outbox relay adds a request here in the same
-- transaction that claims it for a workflow, so every request is counted exactly once and
-- the accept path writes nothing extra. Requests not claimed yet are counted from
-- notification_requests where workflow_id IS NULL.
CREATE TABLE app_usage (
    app_id         bigint NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    month          date   NOT NULL,
    notifications  bigint NOT NULL DEFAULT 0,
    -- Recipients named in the requests (topic audiences are resolved later, not counted here).
    recipients     bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (app_id, month)
);

-- The same counts per client, kept apart from app_usage so that deleting an app does not
-- give its client's quota back.
CREATE TABLE client_usage (
    client_id      bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    month          date   NOT NULL,
    notifications  bigint NOT NULL DEFAULT 0,
    recipients     bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (client_id, month)
);

-- W3C traceparent of the API request that accepted a send, when tracing is on: the relay
-- starts the workflow as a child of it, so one trace runs from the API to each activity.
ALTER TABLE notification_requests ADD COLUMN trace_parent text;

-- +goose Down
ALTER TABLE notification_requests DROP COLUMN trace_parent;
DROP TABLE client_usage;
DROP TABLE app_usage;
