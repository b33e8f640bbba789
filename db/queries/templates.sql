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

-- Template features of the management API: batching content, content states, order,
-- duplication, and the owner lookup of /v1/templates/{id}.

-- name: GetTemplateClient :one
-- The app and client owning a template, for the role check of /v1/templates/{id}.
SELECT t.app_id, a.client_id FROM templates t JOIN apps a ON a.id = t.app_id WHERE t.id = @id;

-- name: GetTemplateContent :one
SELECT * FROM template_contents WHERE app_id = @app_id AND template_id = @template_id AND channel = @channel;

-- name: SetTemplateBatchingContent :one
UPDATE template_contents SET batching_content = @batching_content, updated_at = now()
WHERE app_id = @app_id AND template_id = @template_id AND channel = @channel
RETURNING *;

-- name: TemplateExists :one
SELECT EXISTS (SELECT 1 FROM templates WHERE app_id = @app_id AND identifier = @identifier);

-- name: CreateTemplateContentState :one
INSERT INTO template_content_states (app_id, template_id, state, label)
VALUES (@app_id, @template_id, @state, @label)
ON CONFLICT (template_id, state) DO UPDATE SET label = EXCLUDED.label
RETURNING *;

-- name: ListTemplateContentStates :many
SELECT * FROM template_content_states WHERE app_id = @app_id AND template_id = @template_id ORDER BY state;

-- name: CopyTemplateContents :exec
-- Copies a template's contents (and batching contents) to another template of the app.
INSERT INTO template_contents (app_id, template_id, channel, content, layout_id, position, batching_content)
SELECT c.app_id, @to_template_id, c.channel, c.content, c.layout_id, c.position, c.batching_content
FROM template_contents c WHERE c.app_id = @app_id AND c.template_id = @from_template_id;

-- name: CopyTemplateContentStates :exec
INSERT INTO template_content_states (app_id, template_id, state, label)
SELECT s.app_id, @to_template_id, s.state, s.label
FROM template_content_states s WHERE s.app_id = @app_id AND s.template_id = @from_template_id;

-- name: ListClientLayouts :many
-- The layouts of every app of a client (GET /v1/clients/{id}/email-layouts).
SELECT l.*, a.name AS app_name FROM layouts l JOIN apps a ON a.id = l.app_id
WHERE a.client_id = @client_id ORDER BY a.id, l.identifier;
