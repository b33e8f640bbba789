-- name: CreateLayout :one
INSERT INTO layouts (app_id, identifier, name, html, text, is_default)
VALUES (@app_id, @identifier, @name, @html, @text, @is_default)
RETURNING *;

-- name: UpdateLayout :one
UPDATE layouts SET name = @name, html = @html, text = @text, is_default = @is_default, updated_at = now()
WHERE app_id = @app_id AND id = @id
RETURNING *;

-- name: ClearDefaultLayout :exec
UPDATE layouts SET is_default = false, updated_at = now() WHERE app_id = @app_id AND is_default AND id <> @keep_id;

-- name: GetLayout :one
SELECT * FROM layouts WHERE app_id = @app_id AND id = @id;

-- name: GetLayoutByIdentifier :one
SELECT * FROM layouts WHERE app_id = @app_id AND identifier = @identifier;

-- name: GetDefaultLayout :one
SELECT * FROM layouts WHERE app_id = @app_id AND is_default;

-- name: ListLayouts :many
SELECT * FROM layouts WHERE app_id = @app_id ORDER BY identifier;

-- name: DeleteLayout :execrows
DELETE FROM layouts WHERE app_id = @app_id AND id = @id;
