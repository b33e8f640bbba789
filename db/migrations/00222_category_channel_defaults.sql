-- +goose Up
-- An app's default for each category × channel: a channel listed false starts off for every
-- user until the user turns it on (docs/preferences.md). An unlisted channel starts on, as
-- before. A user's own choice always overrides the default.
ALTER TABLE categories ADD COLUMN channel_defaults jsonb NOT NULL DEFAULT '{}'::jsonb;

-- +goose Down
ALTER TABLE categories DROP COLUMN channel_defaults;
