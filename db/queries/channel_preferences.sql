-- A user's switches for whole channels (above every category). Scoped by app and user.

-- name: ListChannelPreferences :many
SELECT channel, enabled FROM channel_preferences WHERE app_id = @app_id AND user_id = @user_id;

-- name: UpsertChannelPreferences :exec
INSERT INTO channel_preferences (app_id, user_id, channel, enabled)
SELECT @app_id, @user_id, p.channel, p.enabled
FROM (SELECT unnest(@channels::text[]) AS channel, unnest(@enabled::bool[]) AS enabled) AS p
ON CONFLICT (user_id, channel) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now();

-- name: DeliveryChannelsOff :many
-- The channels some users turned off for every notification.
SELECT user_id, channel FROM channel_preferences
WHERE app_id = @app_id AND user_id = ANY(@user_ids::bigint[]) AND NOT enabled;
