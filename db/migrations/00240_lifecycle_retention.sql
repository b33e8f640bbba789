-- +goose Up

-- Retention per app (issue 33): how long each kind of data is kept, as overrides of the
-- documented defaults ({"messageLogs": 30, ...}, in days; a kind left out keeps its
-- default). The kinds and their defaults live in internal/lifecycle/retention, so a new
-- kind (a new append-only table) is one entry there and no schema change.
ALTER TABLE apps ADD COLUMN retention jsonb NOT NULL DEFAULT '{}'::jsonb;

-- +goose Down
ALTER TABLE apps DROP COLUMN retention;
