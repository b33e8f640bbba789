-- name: GetCategoryByIdentifier :one
SELECT * FROM categories WHERE app_id = @app_id AND identifier = @identifier;

-- name: EnsureCategory :one
-- Creates a category named in a send request (the deprecated form) unless it exists.
WITH ins AS (
    INSERT INTO categories (app_id, identifier, name) VALUES (@app_id, @identifier, @identifier)
    ON CONFLICT (app_id, identifier) DO NOTHING
    RETURNING id
)
SELECT id FROM ins
UNION ALL
SELECT id FROM categories WHERE app_id = @app_id AND identifier = @identifier
LIMIT 1;

-- name: GetCategoryClient :one
-- The app and client owning a category, for the role check of /v1/categories/{id}.
SELECT c.app_id, a.client_id FROM categories c JOIN apps a ON a.id = c.app_id WHERE c.id = @id;

-- name: UpdateAppCategory :one
-- Renames a category, marks it critical and/or sets its channel defaults (NULL: unchanged).
UPDATE categories SET name = COALESCE(sqlc.narg(name)::text, name),
    critical = COALESCE(sqlc.narg(critical)::boolean, critical),
    channel_defaults = COALESCE(sqlc.narg(channel_defaults)::jsonb, channel_defaults)
WHERE id = @id AND app_id = @app_id RETURNING *;


-- Categories as the developer API manages them. Every statement is scoped by app.

-- name: ListAppCategories :many
SELECT * FROM categories WHERE app_id = @app_id ORDER BY id;

-- name: InsertCategory :one
INSERT INTO categories (app_id, identifier, name, critical, channel_defaults)
VALUES (@app_id, @identifier, @name, @critical, COALESCE(sqlc.narg(channel_defaults)::jsonb, '{}'::jsonb))
RETURNING *;

-- name: DeleteAppCategory :execrows
DELETE FROM categories WHERE app_id = @app_id AND id = @id;

-- name: AppCategoryIDs :many
-- The ids among the given ones that are categories of the app.
SELECT id FROM categories WHERE app_id = @app_id AND id = ANY(@ids::bigint[]);
