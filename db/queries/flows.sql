-- name: CreateFlow :one
INSERT INTO flows (app_id, identifier, name, draft) VALUES (@app_id, @identifier, @name, @draft)
RETURNING *;

-- name: UpdateFlowDraft :one
UPDATE flows SET name = @name, draft = @draft, updated_at = now()
WHERE app_id = @app_id AND identifier = @identifier
RETURNING *;

-- name: GetFlow :one
SELECT * FROM flows WHERE app_id = @app_id AND identifier = @identifier;

-- name: ListFlows :many
SELECT * FROM flows
WHERE app_id = @app_id AND (NOT @published_only::bool OR published_version IS NOT NULL)
ORDER BY identifier;

-- name: PublishFlow :one
-- Snapshots the draft as the next version and makes it the one sends run.
WITH f AS (
    SELECT flows.id, flows.draft, COALESCE((SELECT max(v.version) FROM flow_versions v WHERE v.flow_id = flows.id), 0) + 1 AS next
    FROM flows WHERE flows.app_id = @app_id AND flows.identifier = @identifier
    FOR UPDATE
), v AS (
    INSERT INTO flow_versions (flow_id, version, definition) SELECT f.id, f.next, f.draft FROM f
    RETURNING flow_id, version
)
UPDATE flows SET published_version = v.version, updated_at = now()
FROM v WHERE flows.id = v.flow_id
RETURNING flows.published_version;

-- name: GetPublishedFlow :one
SELECT f.identifier, v.version, v.definition
FROM flows f JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
WHERE f.app_id = @app_id AND f.identifier = @identifier;

-- name: InsertFlowLog :exec
INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, detail, workflow_id)
VALUES (@app_id, @request_id, @flow_identifier, @flow_version, @user_identifier, @step_id, @step_type, @outcome, @detail, @workflow_id);

-- name: ListFlowLogs :many
SELECT * FROM flow_logs WHERE app_id = @app_id
ORDER BY created_at DESC, id DESC
LIMIT @max_rows OFFSET @skip_rows;

-- name: CountFlowLogs :one
SELECT count(*) FROM flow_logs WHERE app_id = @app_id;

-- name: HitThrottle :one
-- Counts one run in the key's current window and returns the count including it.
INSERT INTO flow_throttles (app_id, key, window_start, count) VALUES (@app_id, @key, @window_start, 1)
ON CONFLICT (app_id, key, window_start) DO UPDATE SET count = flow_throttles.count + 1
RETURNING count;

-- name: NotificationStates :many
SELECT id, seen_at, read_at, clicked_at, state FROM notifications
WHERE app_id = @app_id AND id = ANY(@ids::bigint[]);

-- name: RegisterFlowRuns :exec
-- Records the runs of one batch of recipients before they start (idempotent).
INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, cancellation_key, workflow_id)
SELECT @app_id, @request_id, @flow_identifier, u.user_identifier, @cancellation_key, u.workflow_id
FROM (SELECT unnest(@user_identifiers::text[]) AS user_identifier, unnest(@workflow_ids::text[]) AS workflow_id) AS u
ON CONFLICT (workflow_id) DO NOTHING;

-- name: FinishFlowRun :exec
UPDATE flow_runs SET status = @status, finished_at = now()
WHERE app_id = @app_id AND workflow_id = @workflow_id AND status = 'running';

-- name: CancelFlowRuns :many
-- Marks the running runs with a cancellation key (optionally of some recipients) cancelled
-- and returns their workflow ids.
UPDATE flow_runs SET status = 'cancelled', finished_at = now()
WHERE app_id = @app_id AND cancellation_key = @cancellation_key AND status = 'running'
  AND (cardinality(@user_identifiers::text[]) = 0 OR user_identifier = ANY(@user_identifiers::text[]))
RETURNING workflow_id;
