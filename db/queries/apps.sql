-- name: CreateApp :one
INSERT INTO apps (name, api_key, api_secret_hash, api_secret_sealed)
VALUES (@name, @api_key, @api_secret_hash, @api_secret_sealed)
RETURNING *;

-- name: GetAppByAPIKey :one
SELECT * FROM apps WHERE api_key = @api_key;

-- name: GetAppByID :one
SELECT * FROM apps WHERE id = @id;

-- name: GetAppByName :one
SELECT * FROM apps WHERE name = @name ORDER BY id LIMIT 1;

-- name: CreateClientApp :one
INSERT INTO apps (name, api_key, api_secret_hash, api_secret_sealed, client_id)
VALUES (@name, @api_key, @api_secret_hash, @api_secret_sealed, @client_id)
RETURNING *;

-- name: ListClientApps :many
SELECT * FROM apps WHERE client_id = @client_id ORDER BY id;

-- name: GetClientApp :one
SELECT * FROM apps WHERE id = @id AND client_id = @client_id;

-- name: GetAppClientID :one
SELECT client_id FROM apps WHERE id = @id;

-- name: UpdateClientApp :one
UPDATE apps SET name = @name, enable_web_push = @enable_web_push, hide_branding = @hide_branding,
    hmac_auth = @hmac_auth, allowed_origins = @allowed_origins::text[],
    allow_long_lived_user_tokens = @allow_long_lived_user_tokens, updated_at = now()
WHERE id = @id AND client_id = @client_id
RETURNING *;

-- name: DeleteClientApp :execrows
DELETE FROM apps WHERE id = @id AND client_id = @client_id;

-- name: SetAppRSAKey :exec
UPDATE apps SET rsa_public_key = @public_key, rsa_private_key_sealed = @private_key_sealed, updated_at = now()
WHERE id = @id;

-- name: SetAppSecureAuth :exec
UPDATE apps SET secure_auth = @secure_auth, updated_at = now() WHERE id = @id;

-- name: SetAppHMACAuth :exec
UPDATE apps SET hmac_auth = @hmac_auth, updated_at = now() WHERE id = @id;

-- name: SetAppVAPIDKeys :exec
-- Gives an app its web push key pair unless it has one (concurrent callers keep the first).
UPDATE apps SET vapid_public_key = @public_key, vapid_private_key_sealed = @private_key_sealed, updated_at = now()
WHERE id = @id AND vapid_public_key IS NULL;

-- name: SetAppAllowedOrigins :exec
UPDATE apps SET allowed_origins = @allowed_origins::text[], updated_at = now() WHERE id = @id;

-- name: AdoptApp :execrows
-- Gives an app created outside any client (the demo app of `herald dev`) to a client.
UPDATE apps SET client_id = @client_id, updated_at = now() WHERE id = @id AND client_id IS NULL;

-- name: ListUserModeApps :many
-- The apps whose users authenticate by their id alone (neither secure mode nor HMAC), for
-- herald doctor; at most @max_rows of them, oldest first, with how many there are in all.
SELECT id, name, client_id, secure_auth, hmac_auth, allow_long_lived_user_tokens, count(*) OVER () AS total FROM apps
WHERE NOT secure_auth AND NOT hmac_auth ORDER BY id LIMIT @max_rows;

-- name: GetAppRetention :one
-- An app's retention overrides (internal/lifecycle/retention).
SELECT retention FROM apps WHERE id = @id;

-- name: LockAppRetention :one
SELECT retention FROM apps WHERE id = @id FOR UPDATE;

-- name: SetAppRetention :exec
UPDATE apps SET retention = @retention, updated_at = now() WHERE id = @id;

-- name: RetentionApps :many
-- A page of apps for the retention purge, in id order after @after_id, with their overrides.
SELECT id, retention FROM apps WHERE id > @after_id ORDER BY id LIMIT @max_rows;
