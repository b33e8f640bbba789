-- The activity feed of GET /v1/apps/{appId}/requests picks the ids of a page with a query
-- built from the filters (analytics.Service.Requests); these load those rows and, for one
-- request, what it did.

-- name: RequestsByIDs :many
SELECT * FROM notification_requests WHERE app_id = @app_id AND id = ANY(@ids::uuid[]);

-- name: GetRequestOfApp :one
SELECT * FROM notification_requests WHERE app_id = @app_id AND id = @id;

-- name: FlowRunsOfRequestAll :many
-- Every workflow run one send request started, by recipient (flow_runs_request).
SELECT * FROM flow_runs WHERE app_id = @app_id AND request_id = @request_id::uuid
ORDER BY user_identifier, id
LIMIT 1000;

-- name: FlowLogsOfRequestAll :many
-- The step outcomes of every run of one send request, oldest first (flow_logs_request).
SELECT * FROM flow_logs WHERE app_id = @app_id AND request_id = @request_id
ORDER BY created_at, id
LIMIT 5000;

-- name: MessageLogsOfRequestPage :many
-- The first @max_rows messages of one send request, by recipient then channel (the unique
-- index on request_id leads); the caller asks for one more to know when it stops short.
SELECT * FROM message_logs WHERE app_id = @app_id AND request_id = @request_id
ORDER BY user_id, channel, step_key
LIMIT @max_rows;

-- name: MessageContentsOfRequest :many
-- What the workflow steps of one send request rendered (message_contents by their message
-- log rows; the unique index on request_id leads).
SELECT c.message_log_id, c.content FROM message_contents c JOIN message_logs m ON m.id = c.message_log_id
WHERE m.app_id = @app_id AND m.request_id = @request_id AND c.app_id = @app_id
LIMIT @max_rows;
