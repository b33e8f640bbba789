-- +goose Up

-- Event webhooks (issue 33): an app's endpoints, and one delivery row per event × endpoint.
--
-- The rows are written by statement-level triggers on the tables whose changes are events
-- (message_logs, notifications, flow_runs, the three preference tables), in the same
-- transaction as the change: whatever code path makes the change, the event is recorded
-- exactly when the change commits, and a batch (a mark-all, a page of sends) is one
-- INSERT … SELECT. When the app has no enabled endpoint the triggers stop after one index
-- probe (webhook_endpoints_enabled). webhook_deliveries is the outbox of the delivery
-- workflow (workflows/webhook) and the delivery log of the console at the same time.

CREATE TABLE webhook_endpoints (
    id                     bigserial PRIMARY KEY,
    app_id                 bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    url                    text        NOT NULL,
    description            text        NOT NULL DEFAULT '',
    event_types            text[]      NOT NULL,
    -- Filters: empty means every value; an event that does not carry the dimension (a
    -- message has no flow, say) is not filtered by it.
    categories             text[]      NOT NULL DEFAULT '{}',
    flows                  text[]      NOT NULL DEFAULT '{}',
    channels               text[]      NOT NULL DEFAULT '{}',
    enabled                boolean     NOT NULL DEFAULT true,
    -- Deliver one at a time in event order; a failing event holds the later ones back.
    ordered                boolean     NOT NULL DEFAULT false,
    -- whsec_… sealed with secrets.Box; the previous one keeps signing until previous_until.
    secret                 bytea       NOT NULL,
    previous_secret        bytea,
    previous_until         timestamptz,
    consecutive_failures   integer     NOT NULL DEFAULT 0,
    -- When the current run of failed attempts began (NULL: the last attempt succeeded).
    failing_since          timestamptz,
    -- Why it is disabled: '' (by a person, or enabled), 'failures' (automatically).
    disabled_reason        text        NOT NULL DEFAULT '',
    disabled_at            timestamptz,
    -- An ordered endpoint whose head event failed waits until then.
    blocked_until          timestamptz,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_app ON webhook_endpoints (app_id, id);
CREATE INDEX webhook_endpoints_enabled ON webhook_endpoints (app_id) WHERE enabled;

CREATE TABLE webhook_deliveries (
    id               bigserial   PRIMARY KEY,
    app_id           bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    endpoint_id      bigint      NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    -- The webhook-id header: the same on every attempt, resend and replay.
    message_id       text        NOT NULL DEFAULT 'msg_' || replace(gen_random_uuid()::text, '-', ''),
    event_type       text        NOT NULL,
    data             jsonb       NOT NULL,
    -- pending → succeeded | failed (gave up after the retry period)
    status           text        NOT NULL DEFAULT 'pending',
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    -- An attempt in progress owns the row until then.
    locked_until     timestamptz,
    last_attempt_at  timestamptz,
    last_status      integer,
    last_latency_ms  integer,
    -- The first KB of the endpoint's answer, or why there was none.
    last_response    text        NOT NULL DEFAULT '',
    last_error       text        NOT NULL DEFAULT '',
    -- The last attempts, newest last: [{at, status, latencyMs, error}] (at most 20).
    attempt_log      jsonb       NOT NULL DEFAULT '[]'::jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    delivered_at     timestamptz,
    UNIQUE (message_id)
);
-- The relay's look for due work, and an endpoint's claim in event order.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, id) WHERE status = 'pending';
-- The delivery log of an endpoint, newest first, and of an app (retention by created_at).
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_app ON webhook_deliveries (app_id, created_at);

-- webhook_enqueue fans events out to the enabled endpoints of their app that subscribe to
-- their type and whose filters they pass; one row per event × endpoint, in event order.
-- +goose StatementBegin
CREATE FUNCTION webhook_enqueue(p_app_ids bigint[], p_types text[], p_data jsonb[],
                                p_categories text[], p_flows text[], p_channels text[]) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO webhook_deliveries (app_id, endpoint_id, event_type, data)
    SELECT ev.app_id, e.id, ev.type, ev.data
    FROM unnest(p_app_ids, p_types, p_data, p_categories, p_flows, p_channels)
         WITH ORDINALITY AS ev(app_id, type, data, category, flow, channel, n)
    JOIN webhook_endpoints e ON e.app_id = ev.app_id AND e.enabled AND ev.type = ANY (e.event_types)
     AND (cardinality(e.categories) = 0 OR ev.category IS NULL OR ev.category = ANY (e.categories))
     AND (cardinality(e.flows) = 0 OR ev.flow IS NULL OR ev.flow = ANY (e.flows))
     AND (cardinality(e.channels) = 0 OR ev.channel IS NULL OR ev.channel = ANY (e.channels))
    ORDER BY ev.n, e.id
$$;
-- +goose StatementEnd

-- message.* when a message log row reaches a status (written so, or moved there).
-- +goose StatementBegin
CREATE FUNCTION webhook_message_logs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.enabled AND e.app_id IN (SELECT n.app_id FROM new_rows n)) THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        PERFORM webhook_enqueue(array_agg(n.app_id ORDER BY n.id), array_agg('message.' || n.status ORDER BY n.id),
            array_agg(jsonb_strip_nulls(jsonb_build_object(
                'messageId', n.id, 'requestId', n.request_id, 'userIdentifier', n.user_identifier, 'channel', n.channel,
                'status', n.status, 'stepKey', NULLIF(n.step_key, ''), 'templateIdentifier', n.template_identifier,
                'provider', n.provider, 'providerMessageId', n.provider_message_id, 'error', n.error, 'at', n.updated_at)) ORDER BY n.id),
            array_agg(NULL::text ORDER BY n.id), array_agg(NULL::text ORDER BY n.id), array_agg(n.channel ORDER BY n.id))
        FROM new_rows n
        WHERE n.status IN ('sent', 'delivered', 'failed', 'bounced', 'opened', 'clicked')
        HAVING count(*) > 0;
    ELSE
        PERFORM webhook_enqueue(array_agg(n.app_id ORDER BY n.id), array_agg('message.' || n.status ORDER BY n.id),
            array_agg(jsonb_strip_nulls(jsonb_build_object(
                'messageId', n.id, 'requestId', n.request_id, 'userIdentifier', n.user_identifier, 'channel', n.channel,
                'status', n.status, 'stepKey', NULLIF(n.step_key, ''), 'templateIdentifier', n.template_identifier,
                'provider', n.provider, 'providerMessageId', n.provider_message_id, 'error', n.error, 'at', n.updated_at)) ORDER BY n.id),
            array_agg(NULL::text ORDER BY n.id), array_agg(NULL::text ORDER BY n.id), array_agg(n.channel ORDER BY n.id))
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE n.status IS DISTINCT FROM o.status
          AND n.status IN ('sent', 'delivered', 'failed', 'bounced', 'opened', 'clicked')
        HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER message_logs_webhooks_insert AFTER INSERT ON message_logs
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_message_logs();
CREATE TRIGGER message_logs_webhooks_update AFTER UPDATE ON message_logs
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_message_logs();

-- notification.* when an inbox item is seen, read, clicked, archived (state "archived") or
-- deleted for the first time (a flag cleared and set again is a new event).
-- +goose StatementBegin
CREATE FUNCTION webhook_notifications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.enabled AND e.app_id IN (SELECT n.app_id FROM new_rows n)) THEN
        RETURN NULL;
    END IF;
    PERFORM webhook_enqueue(array_agg(x.app_id ORDER BY x.id, x.ord), array_agg(x.type ORDER BY x.id, x.ord),
        array_agg(jsonb_build_object(
            'notificationId', x.id, 'requestId', x.request_id, 'userIdentifier', u.identifier,
            'category', c.identifier, 'state', x.state, 'seenAt', x.seen_at, 'readAt', x.read_at,
            'clickedAt', x.clicked_at, 'deletedAt', x.deleted_at) ORDER BY x.id, x.ord),
        array_agg(c.identifier ORDER BY x.id, x.ord), array_agg(NULL::text ORDER BY x.id, x.ord),
        array_agg('inApp'::text ORDER BY x.id, x.ord))
    FROM (
        SELECT n.*, v.ord, v.type
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        CROSS JOIN LATERAL (VALUES
            (1, 'notification.seen', o.seen_at IS NULL AND n.seen_at IS NOT NULL),
            (2, 'notification.read', o.read_at IS NULL AND n.read_at IS NOT NULL),
            (3, 'notification.clicked', o.clicked_at IS NULL AND n.clicked_at IS NOT NULL),
            (4, 'notification.archived', n.state = 'archived' AND o.state IS DISTINCT FROM 'archived'),
            (5, 'notification.deleted', o.deleted_at IS NULL AND n.deleted_at IS NOT NULL)
        ) AS v(ord, type, hit)
        WHERE v.hit
    ) x
    JOIN users u ON u.id = x.user_id
    LEFT JOIN categories c ON c.id = x.category_id
    HAVING count(*) > 0;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER notifications_webhooks_update AFTER UPDATE ON notifications
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_notifications();

-- flow_run.completed / flow_run.failed when a run finishes so.
-- +goose StatementBegin
CREATE FUNCTION webhook_flow_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.enabled AND e.app_id IN (SELECT n.app_id FROM new_rows n)) THEN
        RETURN NULL;
    END IF;
    PERFORM webhook_enqueue(array_agg(n.app_id ORDER BY n.id), array_agg('flow_run.' || n.status ORDER BY n.id),
        array_agg(jsonb_build_object(
            'flowRunId', n.workflow_id, 'requestId', n.request_id, 'workflow', n.flow_identifier,
            'userIdentifier', n.user_identifier, 'status', n.status, 'startedAt', n.created_at,
            'finishedAt', n.finished_at) ORDER BY n.id),
        array_agg(NULL::text ORDER BY n.id), array_agg(n.flow_identifier ORDER BY n.id), array_agg(NULL::text ORDER BY n.id))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status AND n.status IN ('completed', 'failed')
    HAVING count(*) > 0;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER flow_runs_webhooks_update AFTER UPDATE ON flow_runs
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_flow_runs();

-- preference.changed when a user's switch is set or flipped: a category × channel
-- (preferences), a whole channel (channel_preferences) or a workflow (flow_preferences).
-- +goose StatementBegin
CREATE FUNCTION webhook_enqueue_preferences(p_app_ids bigint[], p_user_ids bigint[], p_category_ids bigint[],
                                            p_flow_ids bigint[], p_channels text[], p_enabled boolean[]) RETURNS void
LANGUAGE sql AS $$
    SELECT webhook_enqueue(array_agg(p.app_id ORDER BY p.n), array_agg('preference.changed'::text ORDER BY p.n),
        array_agg(jsonb_build_object('userIdentifier', u.identifier, 'category', c.identifier, 'workflow', f.identifier,
            'channel', p.channel, 'enabled', p.enabled) ORDER BY p.n),
        array_agg(c.identifier ORDER BY p.n), array_agg(f.identifier ORDER BY p.n), array_agg(p.channel ORDER BY p.n))
    FROM unnest(p_app_ids, p_user_ids, p_category_ids, p_flow_ids, p_channels, p_enabled)
         WITH ORDINALITY AS p(app_id, user_id, category_id, flow_id, channel, enabled, n)
    JOIN users u ON u.id = p.user_id
    LEFT JOIN categories c ON c.id = p.category_id
    LEFT JOIN flows f ON f.id = p.flow_id
    HAVING count(*) > 0
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE FUNCTION webhook_preferences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.enabled AND e.app_id IN (SELECT n.app_id FROM new_rows n)) THEN
        RETURN NULL;
    END IF;
    IF TG_TABLE_NAME = 'preferences' AND TG_OP = 'INSERT' THEN
        PERFORM webhook_enqueue_preferences(array_agg(n.app_id), array_agg(n.user_id), array_agg(n.category_id),
            array_agg(NULL::bigint), array_agg(n.channel), array_agg(n.enabled))
        FROM new_rows n HAVING count(*) > 0;
    ELSIF TG_TABLE_NAME = 'preferences' THEN
        PERFORM webhook_enqueue_preferences(array_agg(n.app_id), array_agg(n.user_id), array_agg(n.category_id),
            array_agg(NULL::bigint), array_agg(n.channel), array_agg(n.enabled))
        FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.enabled IS DISTINCT FROM o.enabled HAVING count(*) > 0;
    ELSIF TG_TABLE_NAME = 'channel_preferences' AND TG_OP = 'INSERT' THEN
        PERFORM webhook_enqueue_preferences(array_agg(n.app_id), array_agg(n.user_id), array_agg(NULL::bigint),
            array_agg(NULL::bigint), array_agg(n.channel), array_agg(n.enabled))
        FROM new_rows n HAVING count(*) > 0;
    ELSIF TG_TABLE_NAME = 'channel_preferences' THEN
        PERFORM webhook_enqueue_preferences(array_agg(n.app_id), array_agg(n.user_id), array_agg(NULL::bigint),
            array_agg(NULL::bigint), array_agg(n.channel), array_agg(n.enabled))
        FROM new_rows n JOIN old_rows o ON o.user_id = n.user_id AND o.channel = n.channel
        WHERE n.enabled IS DISTINCT FROM o.enabled HAVING count(*) > 0;
    ELSIF TG_OP = 'INSERT' THEN
        PERFORM webhook_enqueue_preferences(array_agg(n.app_id), array_agg(n.user_id), array_agg(NULL::bigint),
            array_agg(n.flow_id), array_agg(NULLIF(n.channel, '')), array_agg(n.enabled))
        FROM new_rows n HAVING count(*) > 0;
    ELSE
        PERFORM webhook_enqueue_preferences(array_agg(n.app_id), array_agg(n.user_id), array_agg(NULL::bigint),
            array_agg(n.flow_id), array_agg(NULLIF(n.channel, '')), array_agg(n.enabled))
        FROM new_rows n JOIN old_rows o ON o.user_id = n.user_id AND o.flow_id = n.flow_id AND o.channel = n.channel
        WHERE n.enabled IS DISTINCT FROM o.enabled HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER preferences_webhooks_insert AFTER INSERT ON preferences
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_preferences();
CREATE TRIGGER preferences_webhooks_update AFTER UPDATE ON preferences
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_preferences();
CREATE TRIGGER channel_preferences_webhooks_insert AFTER INSERT ON channel_preferences
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_preferences();
CREATE TRIGGER channel_preferences_webhooks_update AFTER UPDATE ON channel_preferences
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_preferences();
CREATE TRIGGER flow_preferences_webhooks_insert AFTER INSERT ON flow_preferences
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_preferences();
CREATE TRIGGER flow_preferences_webhooks_update AFTER UPDATE ON flow_preferences
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION webhook_preferences();

-- +goose Down
DROP TRIGGER flow_preferences_webhooks_update ON flow_preferences;
DROP TRIGGER flow_preferences_webhooks_insert ON flow_preferences;
DROP TRIGGER channel_preferences_webhooks_update ON channel_preferences;
DROP TRIGGER channel_preferences_webhooks_insert ON channel_preferences;
DROP TRIGGER preferences_webhooks_update ON preferences;
DROP TRIGGER preferences_webhooks_insert ON preferences;
DROP TRIGGER flow_runs_webhooks_update ON flow_runs;
DROP TRIGGER notifications_webhooks_update ON notifications;
DROP TRIGGER message_logs_webhooks_update ON message_logs;
DROP TRIGGER message_logs_webhooks_insert ON message_logs;
DROP FUNCTION webhook_preferences();
DROP FUNCTION webhook_enqueue_preferences(bigint[], bigint[], bigint[], bigint[], text[], boolean[]);
DROP FUNCTION webhook_flow_runs();
DROP FUNCTION webhook_notifications();
DROP FUNCTION webhook_message_logs();
DROP FUNCTION webhook_enqueue(bigint[], text[], jsonb[], text[], text[], text[]);
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
