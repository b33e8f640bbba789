-- +goose Up
-- A CLI token may be limited to a role below its creator's: it acts with the lower of the
-- two. NULL: the creator's current role, as before.
ALTER TABLE cli_tokens ADD COLUMN role text CHECK (role IN ('viewer', 'developer', 'admin', 'owner'));

-- +goose Down
ALTER TABLE cli_tokens DROP COLUMN role;
