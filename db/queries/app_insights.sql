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
