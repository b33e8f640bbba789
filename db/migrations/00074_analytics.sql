-- +goose Up

-- Delivery analytics, counted as events happen rather than by scanning the message log per
-- request. Events, per message (one message_logs row) and day (UTC) of the event:
--   sent       handed to the channel: an in-app row written, or a provider accepted it
--   delivered  an in-app row written, or the provider reported delivery
--   failed     failed (rendering, provider, retries used up) or bounced
--   skipped    not delivered by decision (preference off, no address, …)
--   seen       an in-app notification was seen
--   read       an in-app notification was read, or the provider reported an open
--   clicked    an in-app notification was clicked, or the provider reported a click
-- A count is of messages in that state, not of actions: an in-app notification marked
-- unread leaves "read" (−1 on the day it was read) and counts again on the day it is read
-- again. Counts stay when messages, notifications or users are deleted (history); deleting
-- the app deletes them.
--
-- Statement-level triggers on message_logs and notifications append each statement's
-- changes, aggregated, to analytics_pending: an insert-only table, so the delivery hot path
-- never waits on a shared counter row (a counter row per app and day would be locked by
-- every delivery transaction until its commit, serialising them). A rollup (analytics
-- package, run beside the worker every few seconds) moves pending rows into analytics_daily
-- and the per-send counts of analytics_sends. Reads add the pending rows to the rolled-up
-- ones in one statement, so they are exact at any moment.

CREATE TABLE analytics_daily (
    app_id    bigint NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    day       date   NOT NULL,
    -- The template identifier, '' for sends without one.
    template  text   NOT NULL,
    channel   text   NOT NULL,
    event     text   NOT NULL,
    count     bigint NOT NULL,
    PRIMARY KEY (app_id, day, template, channel, event)
) WITH (fillfactor = 70);
CREATE INDEX analytics_daily_template ON analytics_daily (app_id, template, day);

-- Changes not rolled up yet. No foreign key: the hot path pays nothing for it, and the
-- rollup drops the rows of apps deleted meanwhile. request_id is kept for sends with a
-- template only (the per-send counts are listed per template).
CREATE TABLE analytics_pending (
    app_id      bigint NOT NULL,
    day         date   NOT NULL,
    template    text   NOT NULL,
    channel     text   NOT NULL,
    event       text   NOT NULL,
    request_id  uuid,
    count       bigint NOT NULL
-- A queue: every rollup deletes what it moved, so vacuum it by a fixed number of dead rows.
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
CREATE INDEX analytics_pending_app ON analytics_pending (app_id, day);
CREATE INDEX analytics_pending_request ON analytics_pending (request_id) WHERE request_id IS NOT NULL;

-- One row per send (request) and template, created with its first message log row, with
-- the counts of its messages (all days). Lists a template's sends newest first.
CREATE TABLE analytics_sends (
    request_id  uuid        NOT NULL,
    template    text        NOT NULL,
    app_id      bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL,
    sent        bigint      NOT NULL DEFAULT 0,
    delivered   bigint      NOT NULL DEFAULT 0,
    failed      bigint      NOT NULL DEFAULT 0,
    skipped     bigint      NOT NULL DEFAULT 0,
    seen        bigint      NOT NULL DEFAULT 0,
    read        bigint      NOT NULL DEFAULT 0,
    clicked     bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (request_id, template)
) WITH (fillfactor = 80);
CREATE INDEX analytics_sends_template ON analytics_sends (app_id, template, created_at DESC, request_id DESC);

-- When a message log row is in the state of an event: the time it got there, else NULL.
-- +goose StatementBegin
CREATE FUNCTION analytics_log_event_at(event text, status text, created_at timestamptz, sent_at timestamptz,
                                       delivered_at timestamptz, failed_at timestamptz, bounced_at timestamptz,
                                       opened_at timestamptz, clicked_at timestamptz)
RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE event
        WHEN 'sent' THEN COALESCE(sent_at, delivered_at)
        WHEN 'delivered' THEN delivered_at
        WHEN 'failed' THEN COALESCE(failed_at, bounced_at)
        WHEN 'skipped' THEN CASE WHEN status = 'skipped' THEN created_at END
        WHEN 'read' THEN opened_at
        WHEN 'clicked' THEN clicked_at
    END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION analytics_message_logs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Each row adds +1 to the events it is in now and −1 to those it was in (updates), on
    -- the event's day; the statement's changes are summed per key, and keys that net to
    -- zero (a claim, a retry's error) write nothing.
    IF TG_OP = 'INSERT' THEN
        INSERT INTO analytics_sends (request_id, template, app_id, created_at)
        SELECT request_id, template_identifier, app_id, min(created_at) FROM new_rows
        WHERE template_identifier IS NOT NULL
        GROUP BY request_id, template_identifier, app_id ORDER BY request_id, template_identifier
        ON CONFLICT DO NOTHING;

        INSERT INTO analytics_pending (app_id, day, template, channel, event, request_id, count)
        SELECT app_id, (at AT TIME ZONE 'UTC')::date, template, channel, event, req, count(*)
        FROM (
            SELECT r.app_id, COALESCE(r.template_identifier, '') AS template, r.channel, ev AS event,
                   CASE WHEN r.template_identifier IS NOT NULL THEN r.request_id END AS req,
                   analytics_log_event_at(ev, r.status, r.created_at, r.sent_at, r.delivered_at, r.failed_at,
                                          r.bounced_at, r.opened_at, r.clicked_at) AS at
            FROM new_rows r, unnest('{sent,delivered,failed,skipped,read,clicked}'::text[]) ev
        ) x
        WHERE at IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5, 6;
    ELSE
        INSERT INTO analytics_pending (app_id, day, template, channel, event, request_id, count)
        SELECT app_id, (at AT TIME ZONE 'UTC')::date, template, channel, event, req, sum(d)
        FROM (
            SELECT r.app_id, COALESCE(r.template_identifier, '') AS template, r.channel, ev AS event,
                   CASE WHEN r.template_identifier IS NOT NULL THEN r.request_id END AS req, r.d,
                   analytics_log_event_at(ev, r.status, r.created_at, r.sent_at, r.delivered_at, r.failed_at,
                                          r.bounced_at, r.opened_at, r.clicked_at) AS at
            FROM (SELECT *, 1 AS d FROM new_rows UNION ALL SELECT *, -1 AS d FROM old_rows) r,
                 unnest('{sent,delivered,failed,skipped,read,clicked}'::text[]) ev
        ) x
        WHERE at IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5, 6
        HAVING sum(d) <> 0;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER message_logs_analytics_insert AFTER INSERT ON message_logs
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_message_logs();
CREATE TRIGGER message_logs_analytics_update AFTER UPDATE ON message_logs
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_message_logs();

-- +goose StatementBegin
CREATE FUNCTION analytics_notifications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Seen, read and clicked of in-app notifications whose flags changed, attributed to the
    -- template of the in-app message log row that wrote them (workflow steps: source key
    -- flow:<step>).
    INSERT INTO analytics_pending (app_id, day, template, channel, event, request_id, count)
    SELECT c.app_id, (e.at AT TIME ZONE 'UTC')::date, COALESCE(ml.template_identifier, ''), 'inApp', v.event,
           CASE WHEN ml.template_identifier IS NOT NULL THEN c.request_id END, sum(e.d)
    FROM (
        SELECT n.app_id, n.request_id, n.user_id, n.source_key, n.seen_at, n.read_at, n.clicked_at,
               o.seen_at AS was_seen, o.read_at AS was_read, o.clicked_at AS was_clicked
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.seen_at, n.read_at, n.clicked_at) IS DISTINCT FROM (o.seen_at, o.read_at, o.clicked_at)
    ) c
    LEFT JOIN message_logs ml ON ml.request_id = c.request_id AND ml.user_id = c.user_id AND ml.channel = 'inApp'
         AND ml.step_key = CASE WHEN c.source_key LIKE 'flow:%' THEN substr(c.source_key, 6) ELSE '' END
    CROSS JOIN LATERAL (VALUES ('seen', c.was_seen, c.seen_at), ('read', c.was_read, c.read_at),
                               ('clicked', c.was_clicked, c.clicked_at)) v(event, was, now)
    CROSS JOIN LATERAL (VALUES (v.now, 1), (v.was, -1)) e(at, d)
    WHERE v.was IS DISTINCT FROM v.now AND e.at IS NOT NULL
    GROUP BY 1, 2, 3, 5, 6
    HAVING sum(e.d) <> 0;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- Named to fire after notifications_counters_update (triggers fire in name order).
CREATE TRIGGER notifications_engagement_update AFTER UPDATE ON notifications
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION analytics_notifications();

-- What happened before this migration, as pending changes for the first rollup.
INSERT INTO analytics_sends (request_id, template, app_id, created_at)
SELECT request_id, template_identifier, app_id, min(created_at) FROM message_logs
WHERE template_identifier IS NOT NULL
GROUP BY request_id, template_identifier, app_id;

INSERT INTO analytics_pending (app_id, day, template, channel, event, request_id, count)
SELECT app_id, (at AT TIME ZONE 'UTC')::date, template, channel, event, req, count(*)
FROM (
    SELECT r.app_id, COALESCE(r.template_identifier, '') AS template, r.channel, ev AS event,
           CASE WHEN r.template_identifier IS NOT NULL THEN r.request_id END AS req,
           analytics_log_event_at(ev, r.status, r.created_at, r.sent_at, r.delivered_at, r.failed_at,
                                  r.bounced_at, r.opened_at, r.clicked_at) AS at
    FROM message_logs r, unnest('{sent,delivered,failed,skipped,read,clicked}'::text[]) ev
) x
WHERE at IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO analytics_pending (app_id, day, template, channel, event, request_id, count)
SELECT n.app_id, (v.at AT TIME ZONE 'UTC')::date, COALESCE(ml.template_identifier, ''), 'inApp', v.event,
       CASE WHEN ml.template_identifier IS NOT NULL THEN n.request_id END, count(*)
FROM notifications n
LEFT JOIN message_logs ml ON ml.request_id = n.request_id AND ml.user_id = n.user_id AND ml.channel = 'inApp'
     AND ml.step_key = CASE WHEN n.source_key LIKE 'flow:%' THEN substr(n.source_key, 6) ELSE '' END
CROSS JOIN LATERAL (VALUES ('seen', n.seen_at), ('read', n.read_at), ('clicked', n.clicked_at)) v(event, at)
WHERE v.at IS NOT NULL
GROUP BY 1, 2, 3, 5, 6;

-- +goose Down
DROP TRIGGER notifications_engagement_update ON notifications;
DROP FUNCTION analytics_notifications();
DROP TRIGGER message_logs_analytics_update ON message_logs;
DROP TRIGGER message_logs_analytics_insert ON message_logs;
DROP FUNCTION analytics_message_logs();
DROP FUNCTION analytics_log_event_at(text, text, timestamptz, timestamptz, timestamptz, timestamptz, timestamptz, timestamptz, timestamptz);
DROP TABLE analytics_sends;
DROP TABLE analytics_pending;
DROP TABLE analytics_daily;
