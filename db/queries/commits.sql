-- Commits and publishing: reading an app's configuration as a snapshot, writing a snapshot
-- into an app, and the commit records. Every statement is scoped by app.

-- name: LockAppConfig :one
-- Serialises commits and publishes of one app (the row lock ends with the transaction).
SELECT id FROM apps WHERE id = @app_id FOR NO KEY UPDATE;

-- name: SnapshotCategories :many
SELECT identifier, name FROM categories WHERE app_id = @app_id ORDER BY identifier;

-- name: SnapshotTranslations :many
SELECT locale, is_default, entries FROM translations WHERE app_id = @app_id ORDER BY locale;

-- name: SnapshotTemplateContents :many
SELECT t.identifier AS template_identifier, c.channel, c.content, c.batching_content, c.position,
       l.identifier AS layout_identifier
FROM template_contents c
JOIN templates t ON t.id = c.template_id AND t.app_id = @app_id
LEFT JOIN layouts l ON l.id = c.layout_id AND l.app_id = @app_id
WHERE c.app_id = @app_id
ORDER BY t.identifier, c.channel;

-- name: SnapshotTemplateStates :many
SELECT t.identifier AS template_identifier, s.state, s.label
FROM template_content_states s JOIN templates t ON t.id = s.template_id AND t.app_id = @app_id
WHERE s.app_id = @app_id
ORDER BY t.identifier, s.state;

-- name: SnapshotFlows :many
SELECT f.identifier, f.name, f.draft, v.definition AS published,
       f.payload_schema AS draft_payload_schema, v.payload_schema AS published_payload_schema
FROM flows f LEFT JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.published_version
WHERE f.app_id = @app_id
ORDER BY f.identifier;

-- name: SnapshotRoutes :many
SELECT * FROM routes WHERE app_id = @app_id ORDER BY channel, name;

-- name: ApplyCategory :exec
INSERT INTO categories (app_id, identifier, name) VALUES (@app_id, @identifier, @name)
ON CONFLICT (app_id, identifier) DO UPDATE SET name = EXCLUDED.name WHERE categories.name <> EXCLUDED.name;

-- name: ApplyLayout :exec
INSERT INTO layouts (app_id, identifier, name, html, text) VALUES (@app_id, @identifier, @name, @html, @text)
ON CONFLICT (app_id, identifier) DO UPDATE
SET name = EXCLUDED.name, html = EXCLUDED.html, text = EXCLUDED.text, updated_at = now()
WHERE (layouts.name, layouts.html, layouts.text) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.html, EXCLUDED.text);

-- name: ClearDefaultLayoutExcept :exec
UPDATE layouts SET is_default = false, updated_at = now()
WHERE app_id = @app_id AND is_default AND identifier <> @keep_identifier;

-- name: SetDefaultLayoutByIdentifier :exec
UPDATE layouts SET is_default = true, updated_at = now()
WHERE app_id = @app_id AND identifier = @identifier AND NOT is_default;

-- name: DeleteLayoutsExcept :exec
DELETE FROM layouts WHERE app_id = @app_id AND NOT (identifier = ANY(@keep::text[]));

-- name: ClearDefaultTranslationExcept :exec
UPDATE translations SET is_default = false, updated_at = now()
WHERE app_id = @app_id AND is_default AND locale <> @keep_locale;

-- name: ApplyTranslation :exec
INSERT INTO translations (app_id, locale, is_default, entries) VALUES (@app_id, @locale, @is_default, @entries)
ON CONFLICT (app_id, locale) DO UPDATE SET is_default = EXCLUDED.is_default, entries = EXCLUDED.entries, updated_at = now()
WHERE (translations.is_default, translations.entries) IS DISTINCT FROM (EXCLUDED.is_default, EXCLUDED.entries);

-- name: DeleteTranslationsExcept :exec
DELETE FROM translations WHERE app_id = @app_id AND NOT (locale = ANY(@keep::text[]));

-- name: ApplyTemplate :one
INSERT INTO templates (app_id, identifier, name, description) VALUES (@app_id, @identifier, @name, @description)
ON CONFLICT (app_id, identifier) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, updated_at = now()
RETURNING id;

-- name: DeleteTemplatesExcept :exec
DELETE FROM templates WHERE app_id = @app_id AND NOT (identifier = ANY(@keep::text[]));

-- name: ApplyTemplateContent :exec
INSERT INTO template_contents (app_id, template_id, channel, content, batching_content, layout_id, position)
VALUES (@app_id, @template_id, @channel, @content, @batching_content,
        (SELECT l.id FROM layouts l WHERE l.app_id = @app_id AND l.identifier = @layout_identifier::text), @position)
ON CONFLICT (template_id, channel) DO UPDATE
SET content = EXCLUDED.content, batching_content = EXCLUDED.batching_content, layout_id = EXCLUDED.layout_id,
    position = EXCLUDED.position, updated_at = now();

-- name: DeleteTemplateContentsExcept :exec
DELETE FROM template_contents WHERE app_id = @app_id AND template_id = @template_id AND NOT (channel = ANY(@keep::text[]));

-- name: DeleteTemplateStatesExcept :exec
DELETE FROM template_content_states WHERE app_id = @app_id AND template_id = @template_id AND NOT (state = ANY(@keep::text[]));

-- name: ApplyFlow :one
INSERT INTO flows (app_id, identifier, name, draft, payload_schema)
VALUES (@app_id, @identifier, @name, @draft, sqlc.narg(payload_schema)::jsonb)
ON CONFLICT (app_id, identifier) DO UPDATE
SET name = EXCLUDED.name, draft = EXCLUDED.draft, payload_schema = EXCLUDED.payload_schema, updated_at = now()
RETURNING id;

-- name: PublishFlowDefinition :exec
-- Adds a version with the given definition and makes it the one sends run (versions stay
-- immutable: rolling back publishes the old definition as a new version).
WITH v AS (
    INSERT INTO flow_versions (flow_id, version, definition, payload_schema)
    SELECT f.id, COALESCE((SELECT max(v.version) FROM flow_versions v WHERE v.flow_id = f.id), 0) + 1, @definition,
           sqlc.narg(payload_schema)::jsonb
    FROM flows f WHERE f.app_id = @app_id AND f.id = @id
    RETURNING flow_id, version
)
UPDATE flows SET published_version = v.version, updated_at = now() FROM v WHERE flows.id = v.flow_id;

-- name: UnpublishFlow :exec
UPDATE flows SET published_version = NULL, updated_at = now() WHERE app_id = @app_id AND id = @id;

-- name: DeleteFlowsExcept :exec
DELETE FROM flows WHERE app_id = @app_id AND NOT (identifier = ANY(@keep::text[]));

-- name: ApplyProviderInstance :one
-- Writes an instance's public configuration; its sealed secrets stay unless the provider
-- kind changes (the target keeps its own credentials).
INSERT INTO provider_instances (app_id, channel, provider, name, config, enabled, priority)
VALUES (@app_id, @channel, @provider, @name, @config, @enabled, @priority)
ON CONFLICT (app_id, channel, name) DO UPDATE
SET provider = EXCLUDED.provider, config = EXCLUDED.config,
    secrets_sealed = CASE WHEN provider_instances.provider = EXCLUDED.provider THEN provider_instances.secrets_sealed END,
    enabled = EXCLUDED.enabled, priority = EXCLUDED.priority, updated_at = now()
RETURNING *;

-- name: DisableProviderInstancesExcept :many
-- Instances the snapshot lacks are disabled, not deleted: they hold the target's secrets.
UPDATE provider_instances SET enabled = false, updated_at = now()
WHERE app_id = @app_id AND enabled AND NOT ((channel || '/' || name) = ANY(@keep::text[]))
RETURNING channel, name;

-- name: ApplyRoute :exec
INSERT INTO routes (app_id, channel, name, instance_ids, conditions, failover, priority, enabled)
VALUES (@app_id, @channel, @name, @instance_ids, @conditions, @failover, @priority, @enabled)
ON CONFLICT (app_id, channel, name) DO UPDATE
SET instance_ids = EXCLUDED.instance_ids, conditions = EXCLUDED.conditions, failover = EXCLUDED.failover,
    priority = EXCLUDED.priority, enabled = EXCLUDED.enabled, updated_at = now();

-- name: DeleteRoutesExcept :exec
DELETE FROM routes WHERE app_id = @app_id AND NOT ((channel || '/' || name) = ANY(@keep::text[]));

-- name: CreateCommit :one
INSERT INTO commits (app_id, message, snapshot, changes, created_by)
VALUES (@app_id, @message, @snapshot, @changes, @created_by)
RETURNING *;

-- name: GetCommit :one
SELECT * FROM commits WHERE app_id = @app_id AND id = @id;

-- name: SetCommitHead :exec
INSERT INTO commit_heads (app_id, commit_id) VALUES (@app_id, @commit_id)
ON CONFLICT (app_id) DO UPDATE SET commit_id = EXCLUDED.commit_id, updated_at = now();

-- name: GetCommitHead :one
SELECT c.* FROM commit_heads h JOIN commits c ON c.id = h.commit_id WHERE h.app_id = @app_id;

-- name: ListCommits :many
-- An app's commits, newest first; with publish_to > 0 only those published to that app.
SELECT c.id, c.app_id, c.message, c.changes, c.created_by, c.created_at, u.email AS created_by_email
FROM commits c LEFT JOIN console_users u ON u.id = c.created_by
WHERE c.app_id = @app_id
  AND (@publish_to::bigint = 0 OR EXISTS (SELECT 1 FROM commit_publications p WHERE p.commit_id = c.id AND p.app_id = @publish_to))
ORDER BY c.id DESC
LIMIT @max_rows OFFSET @skip_rows;

-- name: CountCommits :one
SELECT count(*) FROM commits c
WHERE c.app_id = @app_id
  AND (@publish_to::bigint = 0 OR EXISTS (SELECT 1 FROM commit_publications p WHERE p.commit_id = c.id AND p.app_id = @publish_to));

-- name: CommitPublications :many
SELECT p.commit_id, p.app_id, a.name AS app_name, p.created_at FROM commit_publications p JOIN apps a ON a.id = p.app_id
WHERE p.commit_id = ANY(@commit_ids::bigint[])
ORDER BY p.id;

-- name: CreatePublication :one
INSERT INTO commit_publications (commit_id, app_id, changes, warnings, published_by)
VALUES (@commit_id, @app_id, @changes, @warnings, @published_by)
RETURNING *;
