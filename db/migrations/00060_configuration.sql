-- +goose Up

-- The content a template uses on a channel when the message carries a digest's batch
-- (data.batch present): one message summarising several events.
ALTER TABLE template_contents ADD COLUMN batching_content jsonb;

-- The states a template's in-app notifications may be set to (by their action blocks or by
-- PUT /v3/notifications/{id}/state), with a label for the console.
CREATE TABLE template_content_states (
    id           bigserial PRIMARY KEY,
    app_id       bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    template_id  bigint      NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
    state        text        NOT NULL,
    label        text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (template_id, state)
);

-- A commit is a snapshot of an app's configuration (templates, layouts, translations,
-- workflows, categories, provider instances without their secrets, routes) with a message.
-- Uncommitted changes are the difference between the app's configuration now and the
-- snapshot of its head: nothing else needs to record writes.
CREATE TABLE commits (
    id            bigserial PRIMARY KEY,
    app_id        bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    message       text        NOT NULL,
    snapshot      jsonb       NOT NULL,
    -- The changes the commit made against the app's previous head: [{type, key, action}].
    changes       jsonb       NOT NULL,
    created_by    bigint      REFERENCES console_users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commits_app ON commits (app_id, id DESC);

-- A commit applied to an app (another app of the same client, or its own app to roll back).
CREATE TABLE commit_publications (
    id            bigserial PRIMARY KEY,
    commit_id     bigint      NOT NULL REFERENCES commits (id) ON DELETE CASCADE,
    app_id        bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    changes       jsonb       NOT NULL,
    warnings      jsonb       NOT NULL DEFAULT '[]'::jsonb,
    published_by  bigint      REFERENCES console_users (id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commit_publications_target ON commit_publications (app_id, commit_id);

-- The commit an app's configuration was last equal to: its last commit or the last commit
-- published to it.
CREATE TABLE commit_heads (
    app_id      bigint      PRIMARY KEY REFERENCES apps (id) ON DELETE CASCADE,
    commit_id   bigint      NOT NULL REFERENCES commits (id) ON DELETE CASCADE,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE commit_heads;
DROP TABLE commit_publications;
DROP TABLE commits;
DROP TABLE template_content_states;
ALTER TABLE template_contents DROP COLUMN batching_content;
