-- name: GetDefaultEmailLayout :one
SELECT * FROM email_layouts WHERE client_id = @client_id AND is_default;

-- name: InsertDefaultEmailLayout :one
-- No row when the client has a default layout already.
INSERT INTO email_layouts (client_id, name, html, is_default) VALUES (@client_id, @name, @html, true)
ON CONFLICT (client_id) WHERE is_default DO NOTHING
RETURNING *;
