-- name: CreateFlow :one
INSERT INTO flows (app_id, identifier, name, draft, positions, critical, payload_schema)
VALUES (@app_id, @identifier, @name, @draft, @positions, @critical, sqlc.narg(payload_schema)::jsonb)
RETURNING *;

-- name: UpdateFlowDraft :one
-- positions NULL keeps the stored ones (a client that does not know them, such as the CLI);
-- critical NULL keeps the stored mark the same way; the payload schema is replaced only with
-- set_payload_schema (a NULL payload_schema then removes it).
UPDATE flows SET name = @name, draft = @draft, positions = COALESCE(sqlc.narg(positions)::jsonb, positions),
    critical = COALESCE(sqlc.narg(critical)::boolean, critical),
    payload_schema = CASE WHEN @set_payload_schema::bool THEN sqlc.narg(payload_schema)::jsonb ELSE payload_schema END,
    updated_at = now()
WHERE app_id = @app_id AND identifier = @identifier
RETURNING *;

-- name: GetFlow :one
SELECT * FROM flows WHERE app_id = @app_id AND identifier = @identifier;

-- name: ListFlows :many
-- Archived workflows only with include_archived.
SELECT * FROM flows
WHERE app_id = @app_id AND (NOT @published_only::bool OR published_version IS NOT NULL)
  AND (@include_archived::bool OR archived_at IS NULL)
ORDER BY identifier;

-- name: RenameFlow :one
UPDATE flows SET name = @name, updated_at = now()
WHERE app_id = @app_id AND identifier = @identifier
RETURNING *;

-- name: SetFlowCritical :one
-- Marks a workflow critical (delivered whatever the opt-outs) or not.
UPDATE flows SET critical = @critical, updated_at = now()
WHERE app_id = @app_id AND identifier = @identifier
RETURNING *;

-- name: SetFlowArchived :one
-- Archives (keeping the first time) or unarchives a workflow.
UPDATE flows SET archived_at = CASE WHEN @archived::bool THEN COALESCE(archived_at, now()) END, updated_at = now()
WHERE app_id = @app_id AND identifier = @identifier
RETURNING *;

-- name: DuplicateFlow :one
-- A new draft copied from another workflow's draft and positions (never its versions).
INSERT INTO flows (app_id, identifier, name, draft, positions, critical, payload_schema)
SELECT src.app_id, @new_identifier, @name, src.draft, src.positions, src.critical, src.payload_schema FROM flows src
WHERE src.app_id = @app_id AND src.identifier = @identifier
RETURNING *;

-- name: DeleteUnscheduledFlow :one
-- Deletes a workflow (with its versions) unless a flow schedule sends it; the caller tells
-- the two apart with FlowScheduleIDs. Run logs and message logs stay.
DELETE FROM flows f
WHERE f.app_id = @app_id AND f.identifier = @identifier
  AND NOT EXISTS (SELECT 1 FROM flow_schedules s WHERE s.app_id = f.app_id AND s.flow_identifier = f.identifier)
RETURNING f.id;

-- name: FlowScheduleIDs :many
SELECT schedule_id FROM flow_schedules WHERE app_id = @app_id AND flow_identifier = @identifier ORDER BY id;

-- name: CancelRequestFlowRuns :many
-- Marks the running runs of one workflow started by one send request cancelled and returns
-- their workflow ids.
UPDATE flow_runs SET status = 'cancelled', finished_at = now()
WHERE app_id = @app_id AND flow_identifier = @flow_identifier AND request_id = @request_id AND status = 'running'
RETURNING workflow_id;

-- name: PublishFlow :one
-- Snapshots the draft (with its payload schema) as the next version and makes it the one
-- sends run.
WITH f AS (
    SELECT flows.id, flows.draft, flows.payload_schema, COALESCE((SELECT max(v.version) FROM flow_versions v WHERE v.flow_id = flows.id), 0) + 1 AS next
    FROM flows WHERE flows.app_id = @app_id AND flows.identifier = @identifier
    FOR UPDATE
), v AS (
    INSERT INTO flow_versions (flow_id, version, definition, payload_schema) SELECT f.id, f.next, f.draft, f.payload_schema FROM f
    RETURNING flow_id, version
)
UPDATE flows SET published_version = v.version, updated_at = now()
FROM v WHERE flows.id = v.flow_id
RETURNING flows.published_version;

-- name: GetPublishedFlow :one
SELECT f.identifier, v.version, v.definition, v.payload_schema
FROM flows f JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
WHERE f.app_id = @app_id AND f.identifier = @identifier;

-- name: InsertFlowLog :exec
INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, detail, workflow_id, input, evaluation)
VALUES (@app_id, @request_id, @flow_identifier, @flow_version, @user_identifier, @step_id, @step_type, @outcome, @detail, @workflow_id,
        sqlc.narg('input')::jsonb, sqlc.narg('evaluation')::jsonb);

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

-- Queries of workflow runs: channel steps (message log rows keyed by step), loading a run,
-- and the inbox rows flows wrote.

-- name: InsertStepLog :one
-- The message log row of one channel step of a run (step_key = the step id), queued. A row
-- that exists (a retried activity) is left as it is: GetStepLog reads it.
INSERT INTO message_logs (app_id, request_id, workflow_id, user_id, user_identifier, channel, step_key, status,
                          template_identifier, idempotency_key)
VALUES (@app_id, @request_id, @workflow_id, @user_id, @user_identifier, @channel, @step_key, 'queued',
        NULLIF(@template_identifier::text, ''),
        CAST(@request_id::uuid AS text) || ':' || @user_identifier::text || ':' || @channel::text || ':' || @step_key::text)
ON CONFLICT (request_id, user_id, channel, step_key) DO NOTHING
RETURNING *;

-- name: GetStepLog :one
SELECT * FROM message_logs
WHERE app_id = @app_id AND request_id = @request_id AND user_id = @user_id AND channel = @channel AND step_key = @step_key;

-- name: NoteStepLog :exec
-- Records why a step is delivered despite an opt-out (a critical workflow or category).
UPDATE message_logs SET reason = @reason, updated_at = now() WHERE id = @id AND app_id = @app_id;

-- name: SetStepLogContent :exec
-- Records what a step rendered (message_contents, capped by the caller), before it is sent:
-- the run timeline shows it whatever the provider answers. A retry renders it again.
INSERT INTO message_contents (message_log_id, app_id, content) VALUES (@id, @app_id, @content::jsonb)
ON CONFLICT (message_log_id) DO UPDATE SET content = EXCLUDED.content;

-- name: SettleStepLog :exec
-- Records a step's outcome decided without a provider: skipped, delivered (in-app) or failed.
-- An empty reason keeps the row's (a critical step's note, set by NoteStepLog).
UPDATE message_logs
SET status = @status, reason = COALESCE(NULLIF(@reason::text, ''), reason), error = NULLIF(@error::text, ''),
    delivered_at = CASE WHEN @status::text = 'delivered' THEN now() END,
    failed_at = CASE WHEN @status::text = 'failed' THEN now() END,
    locked_until = NULL, updated_at = now()
WHERE id = @id AND status = 'queued';

-- name: GiveUpStepLog :exec
-- A channel step whose retries ran out: its row, still queued, fails.
UPDATE message_logs
SET status = 'failed', error = COALESCE(error, '') || CASE WHEN error IS NULL THEN '' ELSE ' — ' END || @reason::text,
    failed_at = now(), locked_until = NULL, updated_at = now()
WHERE app_id = @app_id AND request_id = @request_id AND user_identifier = @user_identifier
  AND channel = @channel AND step_key = @step_key AND status = 'queued';

-- name: StepNotification :one
-- The inbox row an in-app step wrote.
SELECT id FROM notifications WHERE request_id = @request_id AND user_id = @user_id AND source_key = @source_key;

-- name: FlowPublishedVersion :one
-- The version sends run, whether the workflow is archived (then it takes no sends), whether
-- it is critical (its sends jump the relay's queue), and whether that version declares a
-- payload schema (accept then reads it once per version: FlowVersionPayloadSchema).
SELECT f.id, f.published_version, (f.archived_at IS NOT NULL)::bool AS archived, f.critical,
       (v.payload_schema IS NOT NULL)::bool AS has_payload_schema
FROM flows f LEFT JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
WHERE f.app_id = @app_id AND f.identifier = @identifier;

-- name: FlowVersionPayloadSchema :one
-- The payload schema of one version of a workflow of the app (NULL: none).
SELECT v.payload_schema FROM flow_versions v JOIN flows f ON f.id = v.flow_id
WHERE f.app_id = @app_id AND v.flow_id = @flow_id AND v.version = @version;

-- name: GetFlowVersion :one
SELECT v.definition
FROM flows f JOIN flow_versions v ON v.flow_id = f.id
WHERE f.app_id = @app_id AND f.identifier = @identifier AND v.version = @version;

-- name: FlowRunStatus :one
SELECT status FROM flow_runs WHERE app_id = @app_id AND workflow_id = @workflow_id;

-- name: FlowInboxRuns :many
-- Of some notifications, those written by workflow steps (source key flow:<step>) that a
-- waitForRead step may wait on, with the run that wrote each (the workflow id of its message
-- log row) and its flags. Left out: runs known to have finished, and steps that no version
-- of the run's workflow waits on (the run would never read the signal). The workflow's
-- identifier is in the run's id: flow/<workflow>/… or, for steps after a digest,
-- digest/<app>/<workflow>/….
SELECT n.id, ml.workflow_id, n.seen_at, n.read_at, n.clicked_at, n.state
FROM notifications n
JOIN message_logs ml ON ml.request_id = n.request_id AND ml.user_id = n.user_id
     AND ml.channel = 'inApp' AND ml.step_key = substr(n.source_key, 6)
WHERE n.app_id = @app_id AND n.id = ANY(@ids::bigint[]) AND n.source_key LIKE 'flow:%'
  AND NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.workflow_id = ml.workflow_id AND r.status <> 'running')
  AND EXISTS (
    SELECT 1 FROM flows f JOIN flow_versions v ON v.flow_id = f.id,
         jsonb_array_elements(v.definition -> 'steps') s
    WHERE f.app_id = n.app_id
      AND f.identifier = CASE WHEN ml.workflow_id LIKE 'digest/%' THEN split_part(ml.workflow_id, '/', 3)
                              ELSE split_part(ml.workflow_id, '/', 2) END
      AND s ->> 'type' = 'waitForRead' AND s ->> 'step' = substr(n.source_key, 6));

-- name: FlowInboxRunsOfUser :many
-- The notifications written by still-running workflow runs of a user (after a bulk mark)
-- that a waitForRead step of the workflow may wait on, with their run and flags.
SELECT n.id, ml.workflow_id, n.seen_at, n.read_at, n.clicked_at, n.state
FROM notifications n
JOIN message_logs ml ON ml.request_id = n.request_id AND ml.user_id = n.user_id
     AND ml.channel = 'inApp' AND ml.step_key = substr(n.source_key, 6)
JOIN flow_runs r ON r.workflow_id = ml.workflow_id AND r.status = 'running'
WHERE n.app_id = @app_id AND n.user_id = @user_id AND n.source_key LIKE 'flow:%' AND n.deleted_at IS NULL
  AND EXISTS (
    SELECT 1 FROM flows f JOIN flow_versions v ON v.flow_id = f.id,
         jsonb_array_elements(v.definition -> 'steps') s
    WHERE f.app_id = n.app_id AND f.identifier = r.flow_identifier
      AND s ->> 'type' = 'waitForRead' AND s ->> 'step' = substr(n.source_key, 6))
ORDER BY n.id DESC
LIMIT @max_rows;

-- Queries of the console's workflow designer: version history and the timeline of a run.

-- name: ListFlowVersions :many
-- The published versions of a workflow of the app, newest first.
SELECT v.version, v.definition, v.payload_schema, v.created_at
FROM flows f JOIN flow_versions v ON v.flow_id = f.id
WHERE f.app_id = @app_id AND f.identifier = @identifier
ORDER BY v.version DESC;

-- name: RequestOfApp :one
-- Whether the app accepted a send request with this id.
SELECT EXISTS (SELECT 1 FROM notification_requests WHERE app_id = @app_id AND id = @request_id::uuid);

-- name: FlowRunsOfRequest :many
-- The runs of a workflow one send request started, by recipient.
SELECT * FROM flow_runs
WHERE app_id = @app_id AND request_id = @request_id::uuid AND flow_identifier = @flow_identifier
ORDER BY user_identifier, id;

-- name: FlowLogsOfRequest :many
-- The step outcomes of the runs of a workflow one send request started, oldest first.
SELECT * FROM flow_logs
WHERE app_id = @app_id AND request_id = @request_id AND flow_identifier = @flow_identifier
ORDER BY created_at, id
LIMIT 1000;
