-- name: CreateTemplate :one
INSERT INTO templates (app_id, identifier, name, description) VALUES (@app_id, @identifier, @name, @description)
RETURNING *;

-- name: UpdateTemplate :one
UPDATE templates SET name = @name, description = @description, updated_at = now()
WHERE app_id = @app_id AND id = @id
RETURNING *;

-- name: GetTemplate :one
SELECT * FROM templates WHERE app_id = @app_id AND id = @id;

-- name: GetTemplateByIdentifier :one
SELECT * FROM templates WHERE app_id = @app_id AND identifier = @identifier;

-- name: ListTemplates :many
SELECT * FROM templates WHERE app_id = @app_id ORDER BY identifier;

-- name: DeleteTemplate :execrows
DELETE FROM templates WHERE app_id = @app_id AND id = @id;

-- name: UpsertTemplateContent :one
INSERT INTO template_contents (app_id, template_id, channel, content, layout_id, position)
VALUES (@app_id, @template_id, @channel, @content, @layout_id, @position)
ON CONFLICT (template_id, channel) DO UPDATE
SET content = EXCLUDED.content, layout_id = EXCLUDED.layout_id, updated_at = now()
RETURNING *;

-- name: ListTemplateContents :many
SELECT * FROM template_contents WHERE app_id = @app_id AND template_id = @template_id ORDER BY position, id;

-- name: DeleteTemplateContent :execrows
DELETE FROM template_contents WHERE app_id = @app_id AND template_id = @template_id AND channel = @channel;

-- name: SetTemplateContentPosition :execrows
UPDATE template_contents SET position = @position, updated_at = now()
WHERE app_id = @app_id AND template_id = @template_id AND channel = @channel;
