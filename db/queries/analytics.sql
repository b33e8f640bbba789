-- Delivery analytics (migration 00074): the rollup of pending changes into the daily and
-- per-send counts, and the reads, which add the pending changes not rolled up yet so that
-- every answer is exact.

-- name: TryAnalyticsRollupLock :one
-- One rollup at a time across processes; the others skip their turn.
SELECT pg_try_advisory_xact_lock(7400174);

-- name: RollUpAnalytics :one
-- Moves up to max_rows pending changes into analytics_daily and analytics_sends (counter
-- rows locked in key order). Changes of apps deleted meanwhile are dropped.
WITH moved AS (
    DELETE FROM analytics_pending
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM analytics_pending LIMIT @max_rows::int))
    RETURNING *
), live AS (
    SELECT m.* FROM moved m WHERE EXISTS (SELECT 1 FROM apps a WHERE a.id = m.app_id)
), daily AS (
    INSERT INTO analytics_daily AS d (app_id, day, template, channel, event, count)
    SELECT l.app_id, l.day, l.template, l.channel, l.event, sum(l.count) FROM live l
    GROUP BY l.app_id, l.day, l.template, l.channel, l.event
    HAVING sum(l.count) <> 0
    ORDER BY l.app_id, l.day, l.template, l.channel, l.event
    ON CONFLICT (app_id, day, template, channel, event) DO UPDATE SET count = d.count + EXCLUDED.count
    RETURNING 1
), sends AS (
    INSERT INTO analytics_sends AS s (request_id, template, app_id, created_at, sent, delivered, failed, skipped, seen, read, clicked)
    SELECT l.request_id, l.template, min(l.app_id), min(l.day)::timestamp AT TIME ZONE 'UTC',
           COALESCE(sum(l.count) FILTER (WHERE l.event = 'sent'), 0),
           COALESCE(sum(l.count) FILTER (WHERE l.event = 'delivered'), 0),
           COALESCE(sum(l.count) FILTER (WHERE l.event = 'failed'), 0),
           COALESCE(sum(l.count) FILTER (WHERE l.event = 'skipped'), 0),
           COALESCE(sum(l.count) FILTER (WHERE l.event = 'seen'), 0),
           COALESCE(sum(l.count) FILTER (WHERE l.event = 'read'), 0),
           COALESCE(sum(l.count) FILTER (WHERE l.event = 'clicked'), 0)
    FROM live l WHERE l.request_id IS NOT NULL
    GROUP BY l.request_id, l.template
    ORDER BY l.request_id, l.template
    ON CONFLICT (request_id, template) DO UPDATE SET
        sent = s.sent + EXCLUDED.sent, delivered = s.delivered + EXCLUDED.delivered, failed = s.failed + EXCLUDED.failed,
        skipped = s.skipped + EXCLUDED.skipped, seen = s.seen + EXCLUDED.seen, read = s.read + EXCLUDED.read,
        clicked = s.clicked + EXCLUDED.clicked
    RETURNING 1
)
SELECT count(*)::int AS moved, (SELECT count(*) FROM daily)::int AS daily_rows, (SELECT count(*) FROM sends)::int AS send_rows
FROM moved;

-- name: AnalyticsByDay :many
SELECT x.day, x.event, sum(x.count)::bigint AS count FROM (
    SELECT d.day, d.event, d.count FROM analytics_daily d
    WHERE d.app_id = @app_id AND d.day BETWEEN @from_day AND @to_day
    UNION ALL
    SELECT p.day, p.event, p.count FROM analytics_pending p
    WHERE p.app_id = @app_id AND p.day BETWEEN @from_day AND @to_day
) x
GROUP BY x.day, x.event;

-- name: AnalyticsByTemplate :many
SELECT x.template, x.day, x.event, sum(x.count)::bigint AS count FROM (
    SELECT d.template, d.day, d.event, d.count FROM analytics_daily d
    WHERE d.app_id = @app_id AND d.day BETWEEN @from_day AND @to_day
    UNION ALL
    SELECT p.template, p.day, p.event, p.count FROM analytics_pending p
    WHERE p.app_id = @app_id AND p.day BETWEEN @from_day AND @to_day
) x
GROUP BY x.template, x.day, x.event;

-- name: AnalyticsByChannel :many
SELECT x.channel, x.day, x.event, sum(x.count)::bigint AS count FROM (
    SELECT d.channel, d.day, d.event, d.count FROM analytics_daily d
    WHERE d.app_id = @app_id AND d.day BETWEEN @from_day AND @to_day
    UNION ALL
    SELECT p.channel, p.day, p.event, p.count FROM analytics_pending p
    WHERE p.app_id = @app_id AND p.day BETWEEN @from_day AND @to_day
) x
GROUP BY x.channel, x.day, x.event;

-- name: AnalyticsTemplateByChannel :many
-- One template's counts per channel, day and event (the template's daily series sums the
-- channels).
SELECT x.channel, x.day, x.event, sum(x.count)::bigint AS count FROM (
    SELECT d.channel, d.day, d.event, d.count FROM analytics_daily d
    WHERE d.app_id = @app_id AND d.template = @template AND d.day BETWEEN @from_day AND @to_day
    UNION ALL
    SELECT p.channel, p.day, p.event, p.count FROM analytics_pending p
    WHERE p.app_id = @app_id AND p.template = @template AND p.day BETWEEN @from_day AND @to_day
) x
GROUP BY x.channel, x.day, x.event;

-- name: CountAnalyticsSends :one
SELECT count(*) FROM analytics_sends
WHERE app_id = @app_id AND template = @template AND created_at >= @from_at AND created_at <= @to_at;

-- name: ListAnalyticsSends :many
-- A page of a template's sends, newest first, with their counts (rolled up and pending)
-- and the workflow that carried each.
SELECT s.request_id, s.created_at, COALESCE(r.workflow_id, '')::text AS workflow_id,
       (s.sent + COALESCE(p.sent, 0))::bigint AS sent, (s.delivered + COALESCE(p.delivered, 0))::bigint AS delivered,
       (s.failed + COALESCE(p.failed, 0))::bigint AS failed, (s.skipped + COALESCE(p.skipped, 0))::bigint AS skipped,
       (s.seen + COALESCE(p.seen, 0))::bigint AS seen, (s.read + COALESCE(p.read, 0))::bigint AS read,
       (s.clicked + COALESCE(p.clicked, 0))::bigint AS clicked
FROM (
    SELECT * FROM analytics_sends a
    WHERE a.app_id = @app_id AND a.template = @template AND a.created_at >= @from_at AND a.created_at <= @to_at
    ORDER BY a.created_at DESC, a.request_id DESC
    LIMIT @max_rows OFFSET @skip_rows
) s
LEFT JOIN LATERAL (
    SELECT sum(q.count) FILTER (WHERE q.event = 'sent') AS sent, sum(q.count) FILTER (WHERE q.event = 'delivered') AS delivered,
           sum(q.count) FILTER (WHERE q.event = 'failed') AS failed, sum(q.count) FILTER (WHERE q.event = 'skipped') AS skipped,
           sum(q.count) FILTER (WHERE q.event = 'seen') AS seen, sum(q.count) FILTER (WHERE q.event = 'read') AS read,
           sum(q.count) FILTER (WHERE q.event = 'clicked') AS clicked
    FROM analytics_pending q WHERE q.request_id = s.request_id AND q.template = s.template
) p ON true
LEFT JOIN notification_requests r ON r.id = s.request_id AND r.app_id = s.app_id
ORDER BY s.created_at DESC, s.request_id DESC;

-- name: AppIntegrationStatus :one
SELECT EXISTS (SELECT 1 FROM notification_requests nr WHERE nr.app_id = @app_id::bigint) AS has_sent,
       COALESCE(EXISTS (SELECT 1 FROM devices d WHERE d.app_id = @app_id::bigint)
        OR EXISTS (SELECT 1 FROM web_push_subscriptions w WHERE w.app_id = @app_id::bigint), false)::bool AS has_devices,
       EXISTS (SELECT 1 FROM provider_instances pi WHERE pi.app_id = @app_id::bigint AND pi.enabled) AS has_providers;

-- name: ProfileKeys :many
-- Distinct top-level profile keys among the app's most recent users (bounded sample).
SELECT k.key::text AS key, count(*)::bigint AS users
FROM (SELECT us.profile FROM users us WHERE us.app_id = @app_id::bigint ORDER BY us.id DESC LIMIT @sample::int) u,
     LATERAL jsonb_object_keys(CASE WHEN jsonb_typeof(u.profile) = 'object' THEN u.profile ELSE '{}'::jsonb END) AS k(key)
GROUP BY k.key ORDER BY count(*) DESC, k.key
LIMIT @max_rows::int;

-- name: ProfileValues :many
-- Distinct scalar values of one profile key among the app's most recent users.
SELECT (u.profile ->> @key::text)::text AS value, count(*)::bigint AS users
FROM (SELECT us.profile FROM users us WHERE us.app_id = @app_id::bigint ORDER BY us.id DESC LIMIT @sample::int) u
WHERE jsonb_typeof(u.profile -> @key::text) IN ('string', 'number', 'boolean')
GROUP BY 1 ORDER BY count(*) DESC, 1
LIMIT @max_rows::int;
