-- name: SetTemplateBatchingContent :execrows
-- Sets (or clears, with NULL) the digest form of a template's content for a channel.
UPDATE template_contents SET batching_content = sqlc.narg(batching_content), updated_at = now()
WHERE app_id = @app_id AND template_id = @template_id AND channel = @channel;
