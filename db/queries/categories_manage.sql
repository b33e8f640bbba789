-- name: CreateAppCategory :one
INSERT INTO categories (app_id, identifier, name) VALUES (@app_id, @identifier, @name) RETURNING *;

-- name: ListAppCategories :many
SELECT * FROM categories WHERE app_id = @app_id ORDER BY id;

-- name: GetCategoryClient :one
-- The app and client owning a category, for the role check of /v1/categories/{id}.
SELECT c.app_id, a.client_id FROM categories c JOIN apps a ON a.id = c.app_id WHERE c.id = @id;

-- name: UpdateAppCategory :one
UPDATE categories SET name = @name WHERE id = @id AND app_id = @app_id RETURNING *;

-- name: DeleteAppCategory :execrows
DELETE FROM categories WHERE id = @id AND app_id = @app_id;
