-- +goose Up

-- The activity feed (GET /v1/apps/{appId}/requests, issue 30 item 6) lists an app's send
-- requests newest first, by (created_at, id) so a cursor continues where a page ended. The
-- unfiltered list reads notification_requests_app_created (00241, the retention purge's)
-- backwards, with an incremental sort of the rare ties; these serve the filters. EXPLAIN
-- ANALYZE on 100 000 requests of one app and 20 000 of another: a 25-row page of a status
-- or a workflow reads 25-30 buffers (0.2 ms), a user's 430 (2.6 ms); without these, a
-- sequential scan and sort of the app's requests (3 900-7 600 buffers, 65-80 ms). The cost
-- is on the accept path: inserting 20 000 requests in one statement took 2.9-4.1 s with
-- the indexes of this file and 00241 against 2.0-2.2 s without (a busy shared machine); an
-- accept inserts one row, where its commit dominates.

-- The status filter reads its own range in order. The status is already an indexed column
-- (the partial indexes name it), so a status change was never a HOT update: this adds one
-- index entry per change, not a heap rewrite.
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
