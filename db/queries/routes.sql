-- name: CreateRoute :one
INSERT INTO routes (app_id, channel, name, instance_ids, conditions, failover, priority, enabled)
VALUES (@app_id, @channel, @name, @instance_ids, @conditions, @failover, @priority, @enabled)
RETURNING *;

-- name: UpdateRoute :one
UPDATE routes
SET name = @name, instance_ids = @instance_ids, conditions = @conditions, failover = @failover,
    priority = @priority, enabled = @enabled, updated_at = now()
WHERE app_id = @app_id AND id = @id
RETURNING *;

-- name: GetRoute :one
SELECT * FROM routes WHERE app_id = @app_id AND id = @id;

-- name: ListRoutes :many
SELECT * FROM routes WHERE app_id = @app_id AND channel = @channel ORDER BY priority, id;

-- name: ListEnabledRoutes :many
SELECT * FROM routes WHERE app_id = @app_id AND channel = @channel AND enabled ORDER BY priority, id;

-- name: DeleteRoute :execrows
DELETE FROM routes WHERE app_id = @app_id AND id = @id;

-- name: GetRouteClient :one
-- The app and client owning a route, for the role check of /v1/routes/{id}.
SELECT r.app_id, a.client_id FROM routes r JOIN apps a ON a.id = r.app_id WHERE r.id = @id;
