-- +goose Up

-- Email layouts of a client (GET /v1/clients/{clientId}/email-layouts); the default one
-- wraps email templates that name no layout. POST /v1/auth/issue-default-layout creates it.
CREATE TABLE email_layouts (
    id          bigserial   PRIMARY KEY,
    client_id   bigint      NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    html        text        NOT NULL,
    is_default  boolean     NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_layouts_client ON email_layouts (client_id);
CREATE UNIQUE INDEX email_layouts_default ON email_layouts (client_id) WHERE is_default;

-- +goose Down
DROP TABLE email_layouts;
