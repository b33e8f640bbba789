-- +goose Up

-- The activity feed (GET /v1/apps/{appId}/requests, issue 30 item 6) lists an app's send
-- requests newest first, by (created_at, id) so a cursor continues where a page ended. No
-- index held an app's requests in that order (notification_requests_fresh_by_app holds only
-- the relay's backlog), so the list sorted every request of the app. EXPLAIN on 100 000
-- requests of one app (docs/console.md, "Activity"): a 25-row page went from a sequential
-- scan and top-N sort to a 26-row index range read.
CREATE INDEX notification_requests_app_time ON notification_requests (app_id, created_at DESC, id DESC);

-- The status filter reads its own range in the same order. The status is already an indexed
-- column (the partial indexes name it), so a status change was never a HOT update: this adds
-- one index entry per change, not a heap rewrite.
CREATE INDEX notification_requests_app_status ON notification_requests (app_id, status, created_at DESC, id DESC);

-- The workflow filter: only sends that name a workflow carry an entry.
CREATE INDEX notification_requests_app_workflow
    ON notification_requests (app_id, (payload #>> '{notification,workflow,identifier}'), created_at DESC, id DESC)
    WHERE payload #>> '{notification,workflow,identifier}' IS NOT NULL;

-- The user filter finds the requests that name the user among their recipients (topic sends
-- reach users through message_logs_app_user instead). jsonb_path_ops keeps one small entry
-- per recipient.
CREATE INDEX notification_requests_recipients ON notification_requests USING gin ((payload -> 'recipients') jsonb_path_ops);

-- +goose Down
DROP INDEX notification_requests_recipients;
DROP INDEX notification_requests_app_workflow;
DROP INDEX notification_requests_app_status;
DROP INDEX notification_requests_app_time;
