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

-- name: SettleStepLog :exec
-- Records a step's outcome decided without a provider: skipped, delivered (in-app) or failed.
UPDATE message_logs
SET status = @status, reason = NULLIF(@reason::text, ''), error = NULLIF(@error::text, ''),
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
SELECT published_version FROM flows WHERE app_id = @app_id AND identifier = @identifier;

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
