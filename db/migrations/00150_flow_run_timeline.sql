-- +goose Up

-- The console's test run reads the timeline of one send request's runs.
CREATE INDEX flow_logs_request ON flow_logs (app_id, request_id);
CREATE INDEX flow_runs_request ON flow_runs (app_id, request_id);

-- +goose Down
DROP INDEX flow_runs_request;
DROP INDEX flow_logs_request;
