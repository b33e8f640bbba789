-- name: InsertMessageLogs :many
-- Records the decisions of one slice: one row per recipient × channel. Rows that exist (a
-- retried slice, a user reached twice) are left as they are.
INSERT INTO message_logs (app_id, request_id, workflow_id, user_id, user_identifier, channel, status, reason, error,
                          template_identifier, idempotency_key, delivered_at, failed_at)
SELECT @app_id, @request_id, @workflow_id, r.user_id, r.user_identifier, r.channel, r.status,
       NULLIF(r.reason, ''), NULLIF(r.error, ''), NULLIF(@template_identifier::text, ''),
       CAST(@request_id::uuid AS text) || ':' || r.user_identifier || ':' || r.channel,
       CASE WHEN r.status = 'delivered' THEN now() END,
       CASE WHEN r.status = 'failed' THEN now() END
FROM (SELECT unnest(@user_ids::bigint[]) AS user_id, unnest(@user_identifiers::text[]) AS user_identifier,
             unnest(@channels::text[]) AS channel, unnest(@statuses::text[]) AS status,
             unnest(@reasons::text[]) AS reason, unnest(@errors::text[]) AS error) AS r
ON CONFLICT (request_id, user_id, channel, step_key) DO NOTHING
RETURNING id, user_id, channel, status;

-- name: QueuedMessageLogs :many
-- The queued and held rows of a slice's users (a retried slice hands them out again).
SELECT id, user_id, channel, status FROM message_logs
WHERE request_id = @request_id AND step_key = '' AND user_id = ANY(@user_ids::bigint[]) AND status IN ('queued', 'held')
ORDER BY id;

-- name: BacklogMessageLogs :many
-- The next queued external rows of a send run's backlog, from a log id on, in id order
-- (message_logs_request_queued).
SELECT id, channel FROM message_logs
WHERE request_id = ANY(@request_ids::uuid[]) AND step_key = '' AND status = 'queued'
  AND id >= @from_id AND channel <> 'inApp'
ORDER BY id
LIMIT @max_rows;

-- name: ClaimMessageLog :one
-- An attempt takes a queued row for the lease; nothing is returned when the row is done or
-- another attempt holds it.
UPDATE message_logs
SET attempts = attempts + 1, locked_until = now() + make_interval(secs => @lease_seconds::float8), updated_at = now()
WHERE id = @id AND status = 'queued' AND (locked_until IS NULL OR locked_until < now())
RETURNING *;

-- name: GetMessageLog :one
SELECT * FROM message_logs WHERE id = @id;

-- name: MarkMessageSent :exec
UPDATE message_logs
SET status = 'sent', provider = @provider, instance_id = @instance_id, provider_message_id = NULLIF(@provider_message_id::text, ''),
    provider_response = @provider_response, error = NULLIF(@error::text, ''), sent_at = now(), locked_until = NULL, updated_at = now()
WHERE id = @id;

-- name: MarkMessageFailed :exec
UPDATE message_logs
SET status = 'failed', provider = COALESCE(@provider, provider), instance_id = COALESCE(@instance_id, instance_id),
    error = @error, failed_at = now(), locked_until = NULL, updated_at = now()
WHERE id = @id AND status = 'queued';

-- name: RecordMessageAttemptError :exec
-- A transient failure: the row stays queued for the next attempt.
UPDATE message_logs
SET provider = COALESCE(@provider, provider), instance_id = COALESCE(@instance_id, instance_id),
    error = @error, locked_until = NULL, updated_at = now()
WHERE id = @id;

-- name: RecordMessageAttemptErrors :exec
-- RecordMessageAttemptError for the attempts of a batch that failed or were held together
-- (one commit): a provider of '' or an instance of 0 leaves the row's own.
UPDATE message_logs AS m
SET provider = COALESCE(NULLIF(r.provider, ''), m.provider), instance_id = COALESCE(NULLIF(r.instance_id, 0), m.instance_id),
    error = r.error, locked_until = NULL, updated_at = now()
FROM (SELECT unnest(@ids::bigint[]) AS id, unnest(@providers::text[]) AS provider, unnest(@instance_ids::bigint[]) AS instance_id,
             unnest(@errors::text[]) AS error) AS r
WHERE m.id = r.id;

-- name: GiveUpMessageLogs :exec
UPDATE message_logs
SET status = 'failed', error = COALESCE(error, '') || CASE WHEN error IS NULL THEN '' ELSE ' — ' END || @reason::text,
    failed_at = now(), locked_until = NULL, updated_at = now()
WHERE id = ANY(@ids::bigint[]) AND status = 'queued';

-- name: GiveUpBacklog :exec
-- Fails the queued external rows of a send run's backlog when the run cannot go on.
UPDATE message_logs
SET status = 'failed', error = COALESCE(error, '') || CASE WHEN error IS NULL THEN '' ELSE ' — ' END || @reason::text,
    failed_at = now(), locked_until = NULL, updated_at = now()
WHERE request_id = ANY(@request_ids::uuid[]) AND step_key = '' AND status = 'queued'
  AND id >= @from_id AND channel <> 'inApp';

-- name: ApplyDeliveryEvent :execrows
-- A provider callback moves a sent message on. The status only moves forward (sent →
-- delivered → opened → clicked); a bounce or failure is final.
UPDATE message_logs
SET status = CASE
        WHEN status IN ('bounced', 'failed') THEN status
        WHEN @status::text IN ('bounced', 'failed') THEN @status::text
        WHEN array_position(ARRAY['queued','sent','delivered','opened','clicked'], @status::text)
             > array_position(ARRAY['queued','sent','delivered','opened','clicked'], status) THEN @status::text
        ELSE status END,
    delivered_at = CASE WHEN @status::text IN ('delivered', 'opened', 'clicked') THEN COALESCE(delivered_at, @at::timestamptz) ELSE delivered_at END,
    opened_at = CASE WHEN @status::text IN ('opened', 'clicked') THEN COALESCE(opened_at, @at::timestamptz) ELSE opened_at END,
    clicked_at = CASE WHEN @status::text = 'clicked' THEN COALESCE(clicked_at, @at::timestamptz) ELSE clicked_at END,
    bounced_at = CASE WHEN @status::text = 'bounced' THEN COALESCE(bounced_at, @at::timestamptz) ELSE bounced_at END,
    failed_at = CASE WHEN @status::text = 'failed' THEN COALESCE(failed_at, @at::timestamptz) ELSE failed_at END,
    error = CASE WHEN @detail::text <> '' AND @status::text IN ('bounced', 'failed') THEN @detail::text ELSE error END,
    updated_at = now()
WHERE app_id = @app_id AND instance_id = @instance_id AND provider_message_id = @provider_message_id;

-- name: ListMessageLogsOfRequest :many
SELECT * FROM message_logs WHERE app_id = @app_id AND request_id = @request_id ORDER BY id;

-- name: RenewMessageLease :execrows
-- The attempt that claimed a message (its attempt number) keeps it while it runs: its
-- heartbeat pushes the lease forward, so a worker that dies frees the message within one
-- lease instead of holding it for the activity's whole timeout.
UPDATE message_logs
SET locked_until = now() + make_interval(secs => @lease_seconds::float8)
WHERE id = @id AND status = 'queued' AND attempts = @attempts;

-- The message log search of GET /v1/apps/{appId}/logs picks the ids of a page with a
-- query built from the filters (analytics.Service.Logs); this loads those rows.

-- name: MessageLogsByIDs :many
SELECT * FROM message_logs WHERE app_id = @app_id AND id = ANY(@ids::bigint[]);

-- name: ClaimMessageLogs :many
-- A batch attempt takes the queued rows of its messages for the lease, as ClaimMessageLog
-- does for one: rows that are done or held by another attempt are not returned. A row held
-- for quiet hours (status 'held') is released by its run's timer: the batch that gets it
-- queues it again as it claims it.
UPDATE message_logs
SET status = 'queued', attempts = attempts + 1, locked_until = now() + make_interval(secs => @lease_seconds::float8), updated_at = now()
WHERE id = ANY(@ids::bigint[]) AND status IN ('queued', 'held') AND (locked_until IS NULL OR locked_until < now())
RETURNING *;

-- name: MessageLogStates :many
-- Where the rows a batch could not claim stand: done, or held until locked_until.
SELECT id, status, provider, locked_until FROM message_logs WHERE id = ANY(@ids::bigint[]);

-- name: MarkMessagesSent :exec
-- MarkMessageSent for the messages of a batch that went out together (one commit).
UPDATE message_logs AS m
SET status = 'sent', provider = r.provider, instance_id = r.instance_id, provider_message_id = NULLIF(r.provider_message_id, ''),
    provider_response = r.provider_response, error = NULLIF(r.error, ''), sent_at = now(), locked_until = NULL, updated_at = now()
FROM (SELECT unnest(@ids::bigint[]) AS id, unnest(@providers::text[]) AS provider, unnest(@instance_ids::bigint[]) AS instance_id,
             unnest(@provider_message_ids::text[]) AS provider_message_id, unnest(@provider_responses::text[]) AS provider_response,
             unnest(@errors::text[]) AS error) AS r
WHERE m.id = r.id;

-- name: RenewMessageLeases :execrows
-- RenewMessageLease for the rows a batch attempt holds (each with its attempt number).
UPDATE message_logs AS m
SET locked_until = now() + make_interval(secs => @lease_seconds::float8)
FROM (SELECT unnest(@ids::bigint[]) AS id, unnest(@attempts::integer[]) AS attempts) AS r
WHERE m.id = r.id AND m.status = 'queued' AND m.attempts = r.attempts;
