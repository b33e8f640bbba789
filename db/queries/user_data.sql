-- Everything Herald holds about one user of an app, read for an export (a data-subject
-- access request) and removed for an erasure (internal/lifecycle). Every query is scoped by
-- app_id.

-- name: LockAppUser :one
-- The user being erased, locked so a concurrent upsert of its profile waits for the erasure.
SELECT * FROM users WHERE app_id = @app_id AND identifier = @identifier FOR UPDATE;

-- name: CountUserData :one
-- What an erasure of the user removes, counted before it does.
SELECT
    (SELECT count(*) FROM notifications n WHERE n.app_id = @app_id AND n.user_id = @user_id)::bigint AS notifications,
    (SELECT count(*) FROM message_logs m WHERE m.app_id = @app_id AND m.user_id = @user_id)::bigint AS message_logs,
    ((SELECT count(*) FROM preferences p WHERE p.app_id = @app_id AND p.user_id = @user_id)
     + (SELECT count(*) FROM channel_preferences c WHERE c.app_id = @app_id AND c.user_id = @user_id)
     + (SELECT count(*) FROM flow_preferences f WHERE f.app_id = @app_id AND f.user_id = @user_id))::bigint AS preferences,
    ((SELECT count(*) FROM devices d WHERE d.app_id = @app_id AND d.user_id = @user_id)
     + (SELECT count(*) FROM web_push_subscriptions w WHERE w.app_id = @app_id AND w.user_id = @user_id))::bigint AS devices,
    (SELECT count(*) FROM topic_subscriptions s JOIN topics t ON t.id = s.topic_id
     WHERE t.app_id = @app_id AND s.user_id = @user_id)::bigint AS topic_subscriptions;

-- name: CancelUserFlowRuns :many
-- Marks the user's running flow runs cancelled (a run not started yet sees the mark in its
-- first activity) and returns their workflow ids.
UPDATE flow_runs SET status = 'cancelled', finished_at = now()
WHERE app_id = @app_id AND user_identifier = @identifier AND status = 'running'
RETURNING workflow_id;

-- name: UserFlowRunWorkflowIDs :many
-- The Temporal runs that belong to the user alone: its flow runs.
SELECT workflow_id FROM flow_runs WHERE app_id = @app_id AND user_identifier = @identifier ORDER BY id;

-- name: UserRequestIDs :many
-- The send requests that reached the user: its inbox rows, message log rows and flow runs.
SELECT n.request_id FROM notifications n WHERE n.app_id = @app_id AND n.user_id = @user_id
UNION
SELECT m.request_id FROM message_logs m WHERE m.app_id = @app_id AND m.user_id = @user_id
UNION
SELECT f.request_id FROM flow_runs f WHERE f.app_id = @app_id AND f.user_identifier = @identifier;

-- name: UserSharedWorkflowIDs :many
-- The Temporal runs that carried the user among others: the send (or packed send) runs of
-- the requests that reached it, the runs its message log rows name, and the waits of the
-- scheduled requests among them.
SELECT DISTINCT r.workflow_id::text AS workflow_id FROM notification_requests r
WHERE r.app_id = @app_id AND r.id = ANY(@request_ids::uuid[]) AND r.workflow_id IS NOT NULL
UNION
SELECT DISTINCT m.workflow_id FROM message_logs m
WHERE m.app_id = @app_id AND m.user_id = @user_id AND m.workflow_id <> '';

-- name: RequestsNamingUser :many
-- The requests that reached the user or whose payload mentions one of its identifying
-- strings (an inline recipient of a send still waiting, a scheduled send), with their
-- scheduled state. A sequential scan of the app's requests: erasures are rare, and
-- retention bounds the table.
SELECT r.id, r.payload, r.status, s.status AS scheduled_status
FROM notification_requests r
LEFT JOIN scheduled_notifications s ON s.request_id = r.id
WHERE r.app_id = @app_id
  AND (r.id = ANY(@request_ids::uuid[]) OR r.payload::text LIKE ANY(@patterns::text[]))
ORDER BY r.created_at, r.id;

-- name: SetRequestPayload :exec
UPDATE notification_requests SET payload = @payload, recipient_count = @recipient_count, updated_at = now()
WHERE app_id = @app_id AND id = @id;

-- name: CancelScheduledRequest :execrows
-- Cancels a scheduled send left without recipients by an erasure.
UPDATE scheduled_notifications SET status = 'cancelled', cancelled_at = now()
WHERE app_id = @app_id AND request_id = @request_id AND status = 'scheduled';

-- name: DeleteUserFlowLogs :execrows
DELETE FROM flow_logs WHERE app_id = @app_id AND user_identifier = @identifier;

-- name: DeleteUserFlowRuns :execrows
DELETE FROM flow_runs WHERE app_id = @app_id AND user_identifier = @identifier;

-- name: DeleteThrottlesMentioning :execrows
-- Throttle windows whose key names the user (keys are templates such as "{{recipient.id}}").
DELETE FROM flow_throttles WHERE app_id = @app_id AND key LIKE ANY(@patterns::text[]);

-- name: DeleteAppUserByID :execrows
-- Deletes the user row; its inbox, message log, preferences, devices, web push
-- subscriptions, topic subscriptions and counters go with it (ON DELETE CASCADE).
DELETE FROM users WHERE app_id = @app_id AND id = @user_id;

-- name: ExportUserNotifications :many
SELECT n.id, n.request_id, n.source_key, n.title, n.message, n.icon, n.url, n.data, n.blocks, c.identifier AS category,
       n.state, n.seen_at, n.read_at, n.clicked_at, n.deleted_at, n.created_at
FROM notifications n LEFT JOIN categories c ON c.id = n.category_id
WHERE n.app_id = @app_id AND n.user_id = @user_id
ORDER BY n.created_at, n.id LIMIT @max_rows;

-- name: ExportUserMessageLogs :many
SELECT m.id, m.request_id, m.workflow_id, m.channel, m.step_key, m.status, m.reason, m.error, m.template_identifier,
       m.provider, m.provider_message_id, m.attempts, m.created_at, m.updated_at, m.sent_at, m.delivered_at,
       m.failed_at, m.bounced_at, m.opened_at, m.clicked_at, c.content
FROM message_logs m LEFT JOIN message_contents c ON c.message_log_id = m.id WHERE m.app_id = @app_id AND m.user_id = @user_id
ORDER BY m.created_at, m.id LIMIT @max_rows;

-- name: ExportUserFlowRuns :many
SELECT f.request_id, f.flow_identifier, f.cancellation_key, f.workflow_id, f.status, f.created_at, f.finished_at
FROM flow_runs f WHERE f.app_id = @app_id AND f.user_identifier = @identifier
ORDER BY f.created_at, f.id LIMIT @max_rows;

-- name: ExportUserFlowLogs :many
SELECT l.request_id, l.flow_identifier, l.flow_version, l.step_id, l.step_type, l.outcome, l.detail, l.workflow_id, l.created_at,
       l.input, l.evaluation
FROM flow_logs l WHERE l.app_id = @app_id AND l.user_identifier = @identifier
ORDER BY l.created_at, l.id LIMIT @max_rows;

-- name: ExportUserCategoryPreferences :many
SELECT c.identifier AS category, p.channel, p.enabled, p.updated_at
FROM preferences p LEFT JOIN categories c ON c.id = p.category_id
WHERE p.app_id = @app_id AND p.user_id = @user_id ORDER BY p.id;

-- name: ExportUserChannelPreferences :many
SELECT channel, enabled, updated_at FROM channel_preferences
WHERE app_id = @app_id AND user_id = @user_id ORDER BY channel;

-- name: ExportUserFlowPreferences :many
SELECT f.identifier AS workflow, p.channel, p.enabled, p.updated_at
FROM flow_preferences p JOIN flows f ON f.id = p.flow_id
WHERE p.app_id = @app_id AND p.user_id = @user_id ORDER BY f.identifier, p.channel;

-- name: ExportUserDevices :many
SELECT device_id, device_type, push_token, created_at, last_seen_at FROM devices
WHERE app_id = @app_id AND user_id = @user_id ORDER BY id;

-- name: ExportUserWebPushSubscriptions :many
SELECT device_id, endpoint, expiration_time, created_at, updated_at FROM web_push_subscriptions
WHERE app_id = @app_id AND user_id = @user_id ORDER BY id;

-- name: ExportUserTopicSubscriptions :many
SELECT t.identifier AS topic, s.channels, s.created_at, s.updated_at
FROM topic_subscriptions s JOIN topics t ON t.id = s.topic_id
WHERE t.app_id = @app_id AND s.user_id = @user_id ORDER BY t.identifier;

-- name: AppClientID :one
SELECT client_id FROM apps WHERE id = @app_id;

-- name: OthersNotificationsMentioning :many
-- Other users' inbox rows of the requests that reached the user whose content mentions one
-- of its identifying strings (a message to a team naming a member).
SELECT n.id, n.title, n.message, n.icon, n.url, n.data, n.blocks FROM notifications n
WHERE n.app_id = @app_id AND n.request_id = ANY(@request_ids::uuid[]) AND n.user_id <> @user_id
  AND (n.title || ' ' || n.message || ' ' || n.icon || ' ' || n.url || ' ' || n.data::text || ' ' || n.blocks::text) LIKE ANY(@patterns::text[]);

-- name: SetNotificationContent :exec
UPDATE notifications SET title = @title, message = @message, icon = @icon, url = @url, data = @data, blocks = @blocks
WHERE app_id = @app_id AND id = @id;

-- name: OthersMessageLogsMentioning :many
-- Other users' message log rows of the requests that reached the user whose texts mention
-- one of its identifying strings.
SELECT m.id, m.reason, m.error, m.provider_response FROM message_logs m
WHERE m.app_id = @app_id AND m.request_id = ANY(@request_ids::uuid[]) AND m.user_id <> @user_id
  AND (coalesce(m.reason, '') || ' ' || coalesce(m.error, '') || ' ' || coalesce(m.provider_response, '')) LIKE ANY(@patterns::text[]);

-- name: SetMessageLogTexts :exec
UPDATE message_logs SET reason = @reason, error = @error, provider_response = @provider_response
WHERE app_id = @app_id AND id = @id;

-- name: OthersMessageContentsMentioning :many
-- Other users' sent contents (of workflow steps) of the requests that reached the user that
-- mention one of its identifying strings.
SELECT c.message_log_id, c.content FROM message_contents c JOIN message_logs m ON m.id = c.message_log_id
WHERE m.app_id = @app_id AND c.app_id = @app_id AND m.request_id = ANY(@request_ids::uuid[]) AND m.user_id <> @user_id
  AND c.content::text LIKE ANY(@patterns::text[]);

-- name: SetMessageContent :exec
UPDATE message_contents SET content = @content WHERE app_id = @app_id AND message_log_id = @message_log_id;

-- name: OthersFlowLogsMentioning :many
-- Other users' workflow log rows of the requests that reached the user whose recorded input
-- or evaluation (the run's data, the values a branch compared) mentions one of its
-- identifying strings.
SELECT l.id, l.detail, l.input, l.evaluation FROM flow_logs l
WHERE l.app_id = @app_id AND l.request_id = ANY(@request_ids::text[]) AND l.user_identifier <> @identifier
  AND (l.detail || ' ' || coalesce(l.input::text, '') || ' ' || coalesce(l.evaluation::text, '')) LIKE ANY(@patterns::text[]);

-- name: SetFlowLogDetails :exec
UPDATE flow_logs SET detail = @detail, input = sqlc.narg('input')::jsonb, evaluation = sqlc.narg('evaluation')::jsonb
WHERE app_id = @app_id AND id = @id;

-- name: DeleteUserWebhookDeliveries :execrows
-- The event webhook deliveries about the user (their data names it), pending or not: an
-- erased user's events are not sent afterwards.
DELETE FROM webhook_deliveries WHERE app_id = @app_id AND data->>'userIdentifier' = @identifier::text;
