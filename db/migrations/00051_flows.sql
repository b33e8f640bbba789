-- +goose Up

-- A user-defined workflow of an app: a draft definition and immutable published versions.
CREATE TABLE flows (
    id           bigserial PRIMARY KEY,
    app_id       bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    identifier   text        NOT NULL,
    name         text        NOT NULL,
    draft        jsonb       NOT NULL,
    -- The version sends run; NULL until the first publish.
    published_version integer,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, identifier)
);

CREATE TABLE flow_versions (
    flow_id      bigint      NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
    version      integer     NOT NULL,
    definition   jsonb       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (flow_id, version)
);

-- One line per step outcome of a run (GET /v1/apps/{appId}/workflows/logs).
CREATE TABLE flow_logs (
    id               bigserial PRIMARY KEY,
    app_id           bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    request_id       text        NOT NULL,
    flow_identifier  text        NOT NULL,
    flow_version     integer     NOT NULL,
    user_identifier  text        NOT NULL,
    step_id          text        NOT NULL,
    step_type        text        NOT NULL,
    outcome          text        NOT NULL,
    detail           text        NOT NULL DEFAULT '',
    workflow_id      text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flow_logs_app ON flow_logs (app_id, created_at DESC, id DESC);

-- Fixed-window counters of throttle steps.
CREATE TABLE flow_throttles (
    app_id        bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    key           text        NOT NULL,
    window_start  timestamptz NOT NULL,
    count         integer     NOT NULL,
    PRIMARY KEY (app_id, key, window_start)
);

-- +goose Down
DROP TABLE flow_throttles;
DROP TABLE flow_logs;
DROP TABLE flow_versions;
DROP TABLE flows;
