-- A user's switches per workflow (channel '' = the whole workflow). Scoped by app and user.

-- name: ListFlowPreferences :many
SELECT f.identifier, p.channel, p.enabled FROM flow_preferences p
JOIN flows f ON f.id = p.flow_id AND f.app_id = @app_id
WHERE p.app_id = @app_id AND p.user_id = @user_id;

-- name: UpsertFlowPreferences :exec
-- Sets (workflow, channel) switches by workflow identifier; an identifier of another app is
-- ignored even if it slipped past validation.
INSERT INTO flow_preferences (app_id, user_id, flow_id, channel, enabled)
SELECT @app_id, @user_id, f.id, p.channel, p.enabled
FROM (SELECT unnest(@identifiers::text[]) AS identifier, unnest(@channels::text[]) AS channel,
             unnest(@enabled::bool[]) AS enabled) AS p
JOIN flows f ON f.app_id = @app_id AND f.identifier = p.identifier
ON CONFLICT (user_id, flow_id, channel) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now();

-- name: AppFlowIdentifiers :many
-- Which of the given identifiers name workflows of the app.
SELECT identifier FROM flows WHERE app_id = @app_id AND identifier = ANY(@identifiers::text[]);

-- name: ListAppFlowsForPreferences :many
-- The app's workflows a user can set preferences for: published and not archived.
SELECT identifier, name, critical FROM flows
WHERE app_id = @app_id AND published_version IS NOT NULL AND archived_at IS NULL
ORDER BY identifier;

-- name: DeliveryFlowPreferences :many
-- One user's switches for one workflow.
SELECT p.channel, p.enabled FROM flow_preferences p
JOIN flows f ON f.id = p.flow_id
WHERE p.app_id = @app_id AND p.user_id = @user_id AND f.app_id = @app_id AND f.identifier = @identifier;
