-- +goose NO TRANSACTION
-- +goose Up

-- The retention purge deletes an app's oldest rows in batches (id IN (SELECT … ORDER BY
-- created_at LIMIT n)); these indexes make each batch a short range scan instead of a scan
-- of the whole table. message_logs (message_logs_app_time) and flow_logs (flow_logs_app)
-- have theirs already.
CREATE INDEX CONCURRENTLY IF NOT EXISTS notifications_app_created ON notifications (app_id, created_at);
CREATE INDEX CONCURRENTLY IF NOT EXISTS notification_requests_app_created ON notification_requests (app_id, created_at);
CREATE INDEX CONCURRENTLY IF NOT EXISTS notification_requests_app_idempotency_created
    ON notification_requests (app_id, created_at) WHERE idempotency_key IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS notification_requests_app_idempotency_created;
DROP INDEX CONCURRENTLY IF EXISTS notification_requests_app_created;
DROP INDEX CONCURRENTLY IF EXISTS notifications_app_created;
