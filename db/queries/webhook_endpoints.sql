-- Event webhook endpoints of an app (internal/webhooks). Every query is scoped by app.

-- name: CreateWebhookEndpoint :one
INSERT INTO webhook_endpoints (app_id, url, description, event_types, categories, flows, channels, enabled, ordered, secret)
VALUES (@app_id, @url, @description, @event_types, @categories, @flows, @channels, @enabled, @ordered, @secret)
RETURNING *;

-- name: ListWebhookEndpoints :many
SELECT * FROM webhook_endpoints WHERE app_id = @app_id ORDER BY id;

-- name: GetWebhookEndpoint :one
SELECT * FROM webhook_endpoints WHERE app_id = @app_id AND id = @id;

-- name: UpdateWebhookEndpoint :one
-- Enabling an endpoint again clears its failure count and the reason it was disabled.
UPDATE webhook_endpoints SET url = @url, description = @description, event_types = @event_types,
    categories = @categories, flows = @flows, channels = @channels, ordered = @ordered,
    consecutive_failures = CASE WHEN @enabled::bool AND NOT enabled THEN 0 ELSE consecutive_failures END,
    disabled_reason = CASE WHEN @enabled::bool THEN '' ELSE disabled_reason END,
    disabled_at = CASE WHEN @enabled::bool THEN NULL WHEN enabled THEN now() ELSE disabled_at END,
    blocked_until = CASE WHEN @enabled::bool AND NOT enabled THEN NULL ELSE blocked_until END,
    enabled = @enabled, updated_at = now()
WHERE app_id = @app_id AND id = @id
RETURNING *;

-- name: RotateWebhookSecret :one
-- The current secret becomes the previous one, which keeps signing until previous_until.
UPDATE webhook_endpoints SET previous_secret = secret, previous_until = @previous_until, secret = @secret, updated_at = now()
WHERE app_id = @app_id AND id = @id
RETURNING *;

-- name: DeleteWebhookEndpoint :execrows
DELETE FROM webhook_endpoints WHERE app_id = @app_id AND id = @id;

-- name: WebhookEndpointForDelivery :one
-- The endpoint as the delivery activity needs it (any app: the activity holds its id).
SELECT * FROM webhook_endpoints WHERE id = @id;

-- name: WebhookEndpointSucceeded :exec
UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL, blocked_until = NULL
WHERE id = @id AND (consecutive_failures <> 0 OR blocked_until IS NOT NULL);

-- name: WebhookEndpointFailed :one
-- Counts failed attempts in a row. When @threshold of them failed and the first is at least
-- @period_seconds old, the endpoint is disabled: disabled_now is true only for the update
-- that disabled it. An ordered endpoint holds its later events back until @blocked_until.
WITH calc AS (
    SELECT o.id, o.consecutive_failures + @failures::int AS failures, COALESCE(o.failing_since, @first_failure_at::timestamptz) AS since,
           o.enabled AND o.consecutive_failures + @failures::int >= @threshold::int
             AND COALESCE(o.failing_since, @first_failure_at::timestamptz) <= now() - make_interval(secs => @period_seconds::float8) AS disable
    FROM webhook_endpoints o WHERE o.id = @id FOR UPDATE
)
UPDATE webhook_endpoints e SET consecutive_failures = calc.failures, failing_since = calc.since,
    enabled = e.enabled AND NOT calc.disable,
    disabled_reason = CASE WHEN calc.disable THEN 'failures' ELSE e.disabled_reason END,
    disabled_at = CASE WHEN calc.disable THEN now() ELSE e.disabled_at END,
    blocked_until = CASE WHEN e.ordered THEN sqlc.narg(blocked_until)::timestamptz ELSE e.blocked_until END
FROM calc WHERE e.id = calc.id
RETURNING e.id, e.app_id, e.url, e.consecutive_failures, calc.disable::bool AS disabled_now,
    (SELECT a.client_id FROM apps a WHERE a.id = e.app_id) AS client_id;
