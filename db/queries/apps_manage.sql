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
    hmac_auth = @hmac_auth, allowed_origins = @allowed_origins::text[], updated_at = now()
WHERE id = @id AND client_id = @client_id
RETURNING *;

-- name: DeleteClientApp :execrows
DELETE FROM apps WHERE id = @id AND client_id = @client_id;
