-- name: InsertScheduled :exec
INSERT INTO scheduled_notifications (app_id, request_id, send_at) VALUES (@app_id, @request_id, @send_at);

-- name: ListScheduled :many
SELECT s.id, s.request_id, s.send_at, s.status, s.created_at, s.cancelled_at, s.sent_at, r.payload, r.recipient_count
FROM scheduled_notifications s JOIN notification_requests r ON r.id = s.request_id
WHERE s.app_id = @app_id AND (@include_done::bool OR s.status = 'scheduled')
ORDER BY s.send_at, s.id
LIMIT @max_rows OFFSET @skip_rows;

-- name: CancelScheduled :one
-- Cancels a scheduled send that has not begun; no row when it does not exist in the app or
-- already went out.
WITH s AS (
    UPDATE scheduled_notifications SET status = 'cancelled', cancelled_at = now()
    WHERE scheduled_notifications.id = @id AND scheduled_notifications.app_id = @app_id AND scheduled_notifications.status = 'scheduled'
    RETURNING request_id
)
UPDATE notification_requests r SET status = 'cancelled', completed_at = now(), updated_at = now()
FROM s WHERE r.id = s.request_id AND r.status IN ('accepted', 'scheduled')
RETURNING r.id;

-- name: GetScheduled :one
SELECT id, request_id, status FROM scheduled_notifications WHERE id = @id AND app_id = @app_id;

-- name: GetScheduleOfRequest :one
SELECT send_at, status FROM notification_requests WHERE id = @id;

-- name: BeginScheduledSend :one
-- Called when a schedule's timer fires: the request goes out unless it was cancelled.
WITH r AS (
    UPDATE notification_requests SET status = 'started', updated_at = now()
    WHERE notification_requests.id = @id AND notification_requests.status IN ('accepted', 'scheduled')
    RETURNING id
)
UPDATE scheduled_notifications s SET status = 'sent', sent_at = now()
FROM r WHERE s.request_id = r.id
RETURNING s.id;
