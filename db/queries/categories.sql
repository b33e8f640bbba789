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
