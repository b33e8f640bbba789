-- The message log search of GET /v1/apps/{appId}/logs picks the ids of a page with a
-- query built from the filters (analytics.Service.Logs); this loads those rows.

-- name: MessageLogsByIDs :many
SELECT * FROM message_logs WHERE app_id = @app_id AND id = ANY(@ids::bigint[]);
