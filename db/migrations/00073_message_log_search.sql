-- +goose Up

-- The message log search (GET /v1/apps/{appId}/logs) reads an app's rows newest first, by
-- (created_at, id) so that pages are stable and a cursor can continue where a page ended.
-- message_logs_app_time (00030) serves the unfiltered list and the date range; these serve
-- the selective filters in the same order, so a page of a filtered list is one index range
-- read with no sort whatever the size of the table. Each costs one index entry per row
-- written (status also per status change); the provider index holds only the rows that
-- reached a provider (in-app rows never do).
CREATE INDEX message_logs_app_user ON message_logs (app_id, user_identifier, created_at DESC, id DESC);
CREATE INDEX message_logs_app_status ON message_logs (app_id, status, created_at DESC, id DESC);
CREATE INDEX message_logs_app_channel ON message_logs (app_id, channel, created_at DESC, id DESC);
CREATE INDEX message_logs_app_provider ON message_logs (app_id, provider, created_at DESC, id DESC)
    WHERE provider IS NOT NULL;

-- +goose Down
DROP INDEX message_logs_app_provider;
DROP INDEX message_logs_app_channel;
DROP INDEX message_logs_app_status;
DROP INDEX message_logs_app_user;
