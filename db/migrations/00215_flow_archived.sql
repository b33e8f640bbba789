-- +goose Up
-- When a workflow was archived (NULL: it is not). An archived workflow is hidden from the
-- management API's lists unless asked for (?archived=true) and refuses new sends (422) like
-- an unpublished one; its versions, runs and logs stay. Unarchiving clears it.
ALTER TABLE flows ADD COLUMN archived_at timestamptz;

-- +goose Down
ALTER TABLE flows DROP COLUMN archived_at;
