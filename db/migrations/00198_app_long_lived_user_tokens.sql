-- +goose Up
-- Secure mode refuses user JWTs without an exp claim (a leaked one would work forever)
-- unless the app explicitly allows long-lived tokens.
ALTER TABLE apps ADD COLUMN allow_long_lived_user_tokens boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE apps DROP COLUMN allow_long_lived_user_tokens;
