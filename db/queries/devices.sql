-- A user's devices and their web push subscriptions. Scoped by app and user.

-- name: UpsertDevice :exec
INSERT INTO devices (app_id, user_id, device_id, device_type)
VALUES (@app_id, @user_id, @device_id, @device_type)
ON CONFLICT (user_id, device_id)
DO UPDATE SET device_type = EXCLUDED.device_type, last_seen_at = now();

-- name: DeviceRegistered :one
SELECT EXISTS (
    SELECT 1 FROM devices WHERE app_id = @app_id AND user_id = @user_id AND device_id = @device_id
);

-- name: UpsertWebPushSubscription :one
INSERT INTO web_push_subscriptions (app_id, user_id, device_id, endpoint, p256dh, auth, expiration_time)
VALUES (@app_id, @user_id, @device_id, @endpoint, @p256dh, @auth, @expiration_time)
ON CONFLICT (user_id, endpoint) DO UPDATE
SET device_id = EXCLUDED.device_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
    expiration_time = EXCLUDED.expiration_time, updated_at = now()
RETURNING *;

-- name: ListUserDevices :many
-- A user's devices for the console, newest seen first, with how many browser push
-- subscriptions each holds.
SELECT d.device_id, d.device_type, d.push_token, d.created_at, d.last_seen_at,
       (SELECT count(*) FROM web_push_subscriptions w
        WHERE w.app_id = d.app_id AND w.user_id = d.user_id AND w.device_id = d.device_id)::bigint AS web_push_subscriptions
FROM devices d
WHERE d.app_id = @app_id AND d.user_id = @user_id
ORDER BY d.last_seen_at DESC, d.id DESC
LIMIT 100;
