-- name: EnsureUsers :many
-- Creates the users that do not exist yet and returns the ids of all of them. Users created
-- concurrently by another transaction may be missing from the result; the caller looks them
-- up again.
WITH input AS (
    SELECT DISTINCT ON (i.identifier) i.identifier, i.profile
    FROM (SELECT unnest(@identifiers::text[]) AS identifier, unnest(@profiles::jsonb[]) AS profile) AS i
), inserted AS (
    INSERT INTO users (app_id, identifier, profile)
    SELECT @app_id, identifier, profile FROM input
    ON CONFLICT (app_id, identifier) DO NOTHING
    RETURNING id, identifier
)
SELECT inserted.id, inserted.identifier FROM inserted
UNION ALL
SELECT u.id, u.identifier FROM users u JOIN input ON u.identifier = input.identifier
WHERE u.app_id = @app_id;

-- name: MergeUserProfiles :exec
-- Merges inline profile fields from a send into existing users.
UPDATE users u SET profile = u.profile || i.profile, updated_at = now()
FROM (SELECT unnest(@identifiers::text[]) AS identifier, unnest(@profiles::jsonb[]) AS profile) AS i
WHERE u.app_id = @app_id AND u.identifier = i.identifier AND i.profile <> '{}'::jsonb
  AND NOT (u.profile @> i.profile);

-- name: GetUserByIdentifier :one
SELECT * FROM users WHERE app_id = @app_id AND identifier = @identifier;

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
