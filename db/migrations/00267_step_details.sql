-- +goose Up

-- What each step of a workflow run saw and decided, for the run timeline ("why did this
-- user get this"): the input (the run's data and the recipient, capped) and, for a branch
-- or a waitForRead, the evaluation (the conditions compared, the inbox event that released
-- the wait). Both go with their flow_logs row (retention, erasure).
ALTER TABLE flow_logs ADD COLUMN input jsonb;
ALTER TABLE flow_logs ADD COLUMN evaluation jsonb;

-- The content a workflow step rendered and sent (subject, html, text, the in-app card, the
-- SMS text, the address), capped at 256 KB with a truncated mark. It goes with its
-- message_logs row (retention, erasure); other users' rows naming an erased user are
-- redacted.
ALTER TABLE message_logs ADD COLUMN content jsonb;

-- +goose Down
ALTER TABLE message_logs DROP COLUMN content;
ALTER TABLE flow_logs DROP COLUMN evaluation;
ALTER TABLE flow_logs DROP COLUMN input;
