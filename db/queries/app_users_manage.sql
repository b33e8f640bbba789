-- name: ListAppUsers :many
SELECT * FROM users
WHERE app_id = @app_id AND (@prefix::text = '' OR identifier ILIKE @prefix || '%')
ORDER BY id DESC
LIMIT @max_rows OFFSET @skip_rows;

-- name: CountAppUsers :one
SELECT count(*) FROM users
WHERE app_id = @app_id AND (@prefix::text = '' OR identifier ILIKE @prefix || '%');

-- name: CreateAppUser :one
INSERT INTO users (app_id, identifier, profile) VALUES (@app_id, @identifier, @profile) RETURNING *;

-- name: UpsertAppUserProfile :one
-- Creates the user or merges the fields into its profile.
INSERT INTO users (app_id, identifier, profile) VALUES (@app_id, @identifier, @profile)
ON CONFLICT (app_id, identifier) DO UPDATE SET profile = users.profile || EXCLUDED.profile, updated_at = now()
RETURNING *;

-- name: DeleteAppUser :execrows
DELETE FROM users WHERE app_id = @app_id AND identifier = @identifier;

-- name: ListUserPreferenceRows :many
SELECT p.category_id, p.channel, p.enabled FROM preferences p
WHERE p.app_id = @app_id AND p.user_id = @user_id;
