-- name: CreateProviderInstance :one
INSERT INTO provider_instances (app_id, channel, provider, name, config, secrets_sealed, enabled, priority)
VALUES (@app_id, @channel, @provider, @name, @config, @secrets_sealed, @enabled, @priority)
RETURNING *;

-- name: UpdateProviderInstance :one
UPDATE provider_instances
SET name = @name, config = @config, secrets_sealed = @secrets_sealed, enabled = @enabled,
    priority = @priority, updated_at = now()
WHERE app_id = @app_id AND id = @id
RETURNING *;

-- name: SetProviderInstanceEnabled :one
UPDATE provider_instances SET enabled = @enabled, updated_at = now()
WHERE app_id = @app_id AND id = @id
RETURNING *;

-- name: GetProviderInstance :one
SELECT * FROM provider_instances WHERE app_id = @app_id AND id = @id;

-- name: GetProviderInstanceForCallback :one
-- A provider's callback names only the instance; the instance names the app.
SELECT * FROM provider_instances WHERE id = @id;

-- name: ListProviderInstances :many
SELECT * FROM provider_instances
WHERE app_id = @app_id AND (@channel::text = '' OR channel = @channel)
ORDER BY channel, priority, id;

-- name: ListEnabledProviderInstances :many
SELECT * FROM provider_instances
WHERE app_id = @app_id AND channel = @channel AND enabled
ORDER BY priority, id;

-- name: ConfiguredChannels :many
-- The channels an app can deliver on: those with an enabled provider instance.
SELECT DISTINCT channel::text FROM provider_instances WHERE app_id = @app_id AND enabled;

-- name: ProviderInstancesOfChannel :many
-- Which of ids are instances of the app on the channel (to validate a route).
SELECT id FROM provider_instances
WHERE app_id = @app_id AND channel = @channel AND id = ANY(@ids::bigint[]);
