-- +goose Up

-- An email wrapper: html (and text) with {{{content}}} where the rendered body goes.
CREATE TABLE layouts (
    id          bigserial PRIMARY KEY,
    app_id      bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    identifier  text        NOT NULL,
    name        text        NOT NULL,
    html        text        NOT NULL,
    text        text        NOT NULL DEFAULT '{{{content}}}',
    -- The app's default layout wraps emails whose content names none.
    is_default  boolean     NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, identifier)
);
CREATE UNIQUE INDEX layouts_default ON layouts (app_id) WHERE is_default;

-- A notification template: content per channel, named by an identifier in send requests.
CREATE TABLE templates (
    id           bigserial PRIMARY KEY,
    app_id       bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    identifier   text        NOT NULL,
    name         text        NOT NULL,
    description  text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, identifier)
);

-- A template's content for one channel: {"subject", "html", "text"} for email, {"title",
-- "message", "icon", "url"} for in-app, {"title", "body", …} elsewhere.
CREATE TABLE template_contents (
    id           bigserial PRIMARY KEY,
    app_id       bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    template_id  bigint      NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
    channel      text        NOT NULL,
    content      jsonb       NOT NULL,
    layout_id    bigint      REFERENCES layouts (id) ON DELETE SET NULL,
    position     integer     NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (template_id, channel)
);

-- Strings by key for one locale, used by {{t "key"}} in templates. The user's profile key
-- `locale` picks one ("pt-BR", then "pt"), else the app's default.
CREATE TABLE translations (
    id          bigserial PRIMARY KEY,
    app_id      bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    locale      text        NOT NULL,
    is_default  boolean     NOT NULL DEFAULT false,
    entries     jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (app_id, locale)
);
CREATE UNIQUE INDEX translations_default ON translations (app_id) WHERE is_default;

-- +goose Down
DROP TABLE translations;
DROP TABLE template_contents;
DROP TABLE templates;
DROP TABLE layouts;
