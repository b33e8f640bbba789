-- A user's explicitly set preferences (category × channel). Scoped by app and user.

-- name: ListUserPreferences :many
SELECT category_id, channel, enabled FROM preferences
WHERE app_id = @app_id AND user_id = @user_id AND category_id IS NOT NULL;

-- name: UpsertPreferences :exec
-- Sets (category, channel) pairs; a category of another app is ignored even if it slipped
-- past validation.
INSERT INTO preferences (app_id, user_id, category_id, channel, enabled)
SELECT @app_id, @user_id, c.id, p.channel, p.enabled
FROM (SELECT unnest(@category_ids::bigint[]) AS category_id, unnest(@channels::text[]) AS channel,
             unnest(@enabled::bool[]) AS enabled) AS p
JOIN categories c ON c.id = p.category_id AND c.app_id = @app_id
ON CONFLICT (user_id, COALESCE(category_id, 0), channel)
DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = now();
