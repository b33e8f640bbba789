-- +goose Up

-- The audit log: one row per security-relevant event (sign-ins, 2FA changes, password
-- resets, sessions, roles, invitations, CLI tokens, secret reveals). An event about a
-- console account is written once for every client the account belongs to at that moment,
-- so each client's owners and admins read their own trail and nothing of other clients.
-- client_id is NULL for events no client may see: an account that belongs to no client,
-- and failed sign-ins for an email without an account (operators read those with SQL).
-- Rows are never updated; the worker deletes them after HERALD_AUDIT_RETENTION.
CREATE TABLE audit_events (
    id            bigserial PRIMARY KEY,
    client_id     bigint      REFERENCES clients (id) ON DELETE CASCADE,
    action        text        NOT NULL,
    -- Who acted: a signed-in console user (NULL when nobody was signed in, e.g. a failed
    -- sign-in), with the email it had then; via_token_id when through a CLI token.
    actor_id      bigint,
    actor_email   text        NOT NULL DEFAULT '',
    via_token_id  bigint,
    -- What the event is about (a console user, an invitation, a CLI token, an app).
    target_type   text        NOT NULL DEFAULT '',
    target_id     text        NOT NULL DEFAULT '',
    target_label  text        NOT NULL DEFAULT '',
    ip            text        NOT NULL DEFAULT '',
    user_agent    text        NOT NULL DEFAULT '',
    details       jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_events_client ON audit_events (client_id, created_at DESC, id DESC);
CREATE INDEX audit_events_created ON audit_events (created_at);

-- +goose Down
DROP TABLE audit_events;
