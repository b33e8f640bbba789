-- +goose Up
-- Where the console's designer draws each step of a workflow's draft, by step id:
-- {"delay-1": {"x": 0, "y": 140}}. Console metadata: never part of a definition, a
-- published version or a run; steps without a position are laid out automatically.
ALTER TABLE flows ADD COLUMN positions jsonb NOT NULL DEFAULT '{}'::jsonb;

-- +goose Down
ALTER TABLE flows DROP COLUMN positions;
