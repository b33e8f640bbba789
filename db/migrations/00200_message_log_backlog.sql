-- +goose Up

-- A send run whose external messages wait (a provider slow or down) keeps writing in-app
-- rows and leaves the messages past what it holds queued in the message log: its backlog,
-- read back in id order as its queue drains (LoadQueuedJobs, issue 28). This partial index
-- holds only the queued rows of sends, so a read is one short range per request however
-- large the broadcast; rows leave it when they are sent or fail.
CREATE INDEX message_logs_request_queued ON message_logs (request_id, id)
    WHERE status = 'queued' AND step_key = '';

-- +goose Down
DROP INDEX message_logs_request_queued;
