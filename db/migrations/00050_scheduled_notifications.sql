-- +goose Up

-- A send with sendAt in the future waits in a schedule/<requestId> workflow.
ALTER TABLE notification_requests ADD COLUMN send_at timestamptz;
CREATE INDEX notification_requests_scheduled_pending
    ON notification_requests (created_at) WHERE status = 'accepted' AND send_at IS NOT NULL;

-- The console's view of scheduled sends (numeric ids, as the management API uses).
CREATE TABLE scheduled_notifications (
    id            bigserial PRIMARY KEY,
    app_id        bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    request_id    uuid        NOT NULL UNIQUE REFERENCES notification_requests (id) ON DELETE CASCADE,
    send_at       timestamptz NOT NULL,
    -- scheduled → sent | cancelled
    status        text        NOT NULL DEFAULT 'scheduled',
    created_at    timestamptz NOT NULL DEFAULT now(),
    cancelled_at  timestamptz,
    sent_at       timestamptz
);
CREATE INDEX scheduled_notifications_app ON scheduled_notifications (app_id, send_at);

-- +goose Down
DROP TABLE scheduled_notifications;
ALTER TABLE notification_requests DROP COLUMN send_at;
