-- name: CreateFile :one
INSERT INTO files (client_id, folder, name, original_name, content_type, size, created_by)
VALUES (@client_id, @folder, @name, @original_name, @content_type, @size, @created_by)
RETURNING *;

-- name: GetFileByName :one
SELECT * FROM files WHERE name = @name;

-- name: DeleteFile :execrows
DELETE FROM files WHERE name = @name AND client_id = @client_id;
