-- Categories as the developer API manages them. Every statement is scoped by app.

-- name: ListAppCategories :many
SELECT * FROM categories WHERE app_id = @app_id ORDER BY id;

-- name: InsertCategory :one
INSERT INTO categories (app_id, identifier, name) VALUES (@app_id, @identifier, @name)
RETURNING *;

-- name: DeleteAppCategory :execrows
DELETE FROM categories WHERE app_id = @app_id AND id = @id;

-- name: AppCategoryIDs :many
-- The ids among the given ones that are categories of the app.
SELECT id FROM categories WHERE app_id = @app_id AND id = ANY(@ids::bigint[]);
