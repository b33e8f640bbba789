-- +goose Up

-- The relay claims fresh requests app by app, round-robin (issue 28): it asks for the next
-- app after the last one served that has requests waiting, then for that app's oldest.
-- Both are short reads of this partial index, however long one app's backlog is.
CREATE INDEX notification_requests_fresh_by_app
    ON notification_requests (app_id, created_at, id)
    WHERE status = 'accepted' AND workflow_id IS NULL AND send_at IS NULL;

-- +goose Down
DROP INDEX notification_requests_fresh_by_app;
