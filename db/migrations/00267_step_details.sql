-- +goose Up

-- What each step of a workflow run saw and decided, for the run timeline ("why did this
-- user get this"): the input (the run's data and the recipient, capped) and, for a branch
-- or a waitForRead, the evaluation (the conditions compared, the inbox event that released
-- the wait). Both go with their flow_logs row (retention, erasure).
ALTER TABLE flow_logs ADD COLUMN input jsonb;
ALTER TABLE flow_logs ADD COLUMN evaluation jsonb;

-- The content a workflow step rendered and sent (subject, html, text, the in-app card, the
-- SMS text, the address), capped at 256 KB with a truncated mark, beside its message log
-- row rather than in it: the message log's lists, claims and retries never read it. It goes
-- with its row (ON DELETE CASCADE: retention, the user's erasure); other users' rows naming
-- an erased user are redacted.
CREATE TABLE message_contents (
    message_log_id  bigint PRIMARY KEY REFERENCES message_logs (id) ON DELETE CASCADE,
    app_id          bigint NOT NULL,
    content         jsonb  NOT NULL
);

-- +goose Down
DROP TABLE message_contents;
ALTER TABLE flow_logs DROP COLUMN evaluation;
ALTER TABLE flow_logs DROP COLUMN input;
