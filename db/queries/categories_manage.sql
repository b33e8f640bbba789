-- name: GetCategoryClient :one
-- The app and client owning a category, for the role check of /v1/categories/{id}.
SELECT c.app_id, a.client_id FROM categories c JOIN apps a ON a.id = c.app_id WHERE c.id = @id;

-- name: UpdateAppCategory :one
UPDATE categories SET name = @name WHERE id = @id AND app_id = @app_id RETURNING *;

