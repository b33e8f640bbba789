-- name: CountRequestUsage :exec
-- Adds claimed requests to the usage counters of their app and client, in the relay's claim
-- transaction. Rows are locked in key order so concurrent relays cannot deadlock.
WITH r AS (
    SELECT nr.app_id, a.client_id, date_trunc('month', nr.created_at AT TIME ZONE 'UTC')::date AS month,
           count(*)::bigint AS n, COALESCE(sum(nr.recipient_count), 0)::bigint AS rcpt
    FROM notification_requests nr JOIN apps a ON a.id = nr.app_id
    WHERE nr.id = ANY(@ids::uuid[])
    GROUP BY nr.app_id, a.client_id, 3
), by_app AS (
    INSERT INTO app_usage (app_id, month, notifications, recipients)
    SELECT app_id, month, n, rcpt FROM r ORDER BY app_id, month
    ON CONFLICT (app_id, month) DO UPDATE
    SET notifications = app_usage.notifications + excluded.notifications,
        recipients = app_usage.recipients + excluded.recipients
)
INSERT INTO client_usage (client_id, month, notifications, recipients)
SELECT client_id, month, sum(n)::bigint, sum(rcpt)::bigint FROM r WHERE client_id IS NOT NULL
GROUP BY client_id, month ORDER BY client_id, month
ON CONFLICT (client_id, month) DO UPDATE
SET notifications = client_usage.notifications + excluded.notifications,
    recipients = client_usage.recipients + excluded.recipients;

-- name: ClientUsedThisMonth :one
-- A client's notifications of the month starting at month_start: the counter plus the
-- requests the relay has not claimed (and so not counted) yet.
SELECT (COALESCE((SELECT cu.notifications FROM client_usage cu WHERE cu.client_id = @client_id AND cu.month = @month::date), 0)
     + (SELECT count(*) FROM notification_requests nr JOIN apps a ON a.id = nr.app_id
        WHERE a.client_id = @client_id AND nr.status = 'accepted' AND nr.workflow_id IS NULL
          AND nr.created_at >= @month_start))::bigint AS used;

-- name: LockClientQuota :exec
-- Serialises sends of one client near its quota (transaction-scoped advisory lock).
SELECT pg_advisory_xact_lock(7010, mod(@client_id::bigint, 2147483647)::int);

-- name: ClientOfApp :one
SELECT client_id FROM apps WHERE id = @id;

-- name: AppUsageMonths :many
-- An app's counted months from @since, with the requests not counted yet added to their month.
SELECT m.month::date AS month, sum(m.notifications)::bigint AS notifications, sum(m.recipients)::bigint AS recipients
FROM (
    SELECT au.month, au.notifications, au.recipients FROM app_usage au WHERE au.app_id = @app_id AND au.month >= @since::date
    UNION ALL
    SELECT date_trunc('month', nr.created_at AT TIME ZONE 'UTC')::date, count(*), COALESCE(sum(nr.recipient_count), 0)
    FROM notification_requests nr
    WHERE nr.app_id = @app_id AND nr.status = 'accepted' AND nr.workflow_id IS NULL
      AND nr.created_at >= @since_at
    GROUP BY 1
) m
GROUP BY m.month ORDER BY m.month DESC;

-- name: ClientUsageMonths :many
SELECT m.month::date AS month, sum(m.notifications)::bigint AS notifications, sum(m.recipients)::bigint AS recipients
FROM (
    SELECT cu.month, cu.notifications, cu.recipients FROM client_usage cu WHERE cu.client_id = @client_id AND cu.month >= @since::date
    UNION ALL
    SELECT date_trunc('month', nr.created_at AT TIME ZONE 'UTC')::date, count(*), COALESCE(sum(nr.recipient_count), 0)
    FROM notification_requests nr JOIN apps a ON a.id = nr.app_id
    WHERE a.client_id = @client_id AND nr.status = 'accepted' AND nr.workflow_id IS NULL
      AND nr.created_at >= @since_at
    GROUP BY 1
) m
GROUP BY m.month ORDER BY m.month DESC;

-- name: ClientAppsUsage :many
-- Each app of a client with its counts for one month.
SELECT a.id, a.name,
       (COALESCE(au.notifications, 0) + COALESCE(p.n, 0))::bigint AS notifications,
       (COALESCE(au.recipients, 0) + COALESCE(p.rcpt, 0))::bigint AS recipients
FROM apps a
LEFT JOIN app_usage au ON au.app_id = a.id AND au.month = @month::date
LEFT JOIN LATERAL (
    SELECT count(*) AS n, sum(nr.recipient_count) AS rcpt FROM notification_requests nr
    WHERE nr.app_id = a.id AND nr.status = 'accepted' AND nr.workflow_id IS NULL
      AND nr.created_at >= @month_start AND nr.created_at < @month_end
) p ON true
WHERE a.client_id = @client_id
ORDER BY a.id;
