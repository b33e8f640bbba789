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
