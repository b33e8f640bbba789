-- Queries of the developer API's users and profiles. Every statement is scoped by app.

-- name: UpsertUserProfile :one
-- Creates the user or merges the given keys into its profile (top-level keys replace).
INSERT INTO users (app_id, identifier, profile)
VALUES (@app_id, @identifier, @profile)
ON CONFLICT (app_id, identifier) DO UPDATE
SET profile = users.profile || EXCLUDED.profile, updated_at = now()
RETURNING *;

-- name: ReplaceUserProfile :one
UPDATE users SET profile = @profile, updated_at = now()
WHERE id = @id AND app_id = @app_id
RETURNING *;

-- name: DeleteUserByIdentifier :execrows
-- The user's inbox, preferences, subscriptions and devices go with it (ON DELETE CASCADE).
DELETE FROM users WHERE app_id = @app_id AND identifier = @identifier;
