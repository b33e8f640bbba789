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
