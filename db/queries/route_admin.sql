-- name: GetRouteClient :one
-- The app and client owning a route, for the role check of /v1/routes/{id}.
SELECT r.app_id, a.client_id FROM routes r JOIN apps a ON a.id = r.app_id WHERE r.id = @id;
