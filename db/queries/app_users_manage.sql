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

-- name: ListUserPreferenceRows :many
SELECT p.category_id, p.channel, p.enabled FROM preferences p
WHERE p.app_id = @app_id AND p.user_id = @user_id;
