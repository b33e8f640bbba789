-- +goose Up
-- The web origins (scheme://host[:port], or "*") whose pages may call an app's user routes
-- from a browser: the embeddable inbox runs on the customer's origin, not Herald's.
ALTER TABLE apps ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE apps DROP COLUMN allowed_origins;
