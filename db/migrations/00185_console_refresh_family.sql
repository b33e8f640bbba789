-- +goose Up
-- Every refresh token a console session has issued (its family), by hash. A token is live
-- until it is rotated (used_at); a rotated token presented again within the console's
-- grace gets one live sibling (grace_used), and any other reuse revokes the session.
-- Tokens retired because another token of the family was rotated never get a grace.
CREATE TABLE console_refresh_tokens (
    hash        bytea       PRIMARY KEY,
    session_id  bigint      NOT NULL REFERENCES console_sessions (id) ON DELETE CASCADE,
    used_at     timestamptz,
    grace_used  boolean     NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_refresh_tokens_session ON console_refresh_tokens (session_id) WHERE used_at IS NULL;

-- Open sessions keep their current and previous tokens.
INSERT INTO console_refresh_tokens (hash, session_id, created_at)
SELECT refresh_hash, id, refreshed_at FROM console_sessions WHERE revoked_at IS NULL AND expires_at > now();
INSERT INTO console_refresh_tokens (hash, session_id, used_at, grace_used)
SELECT previous_refresh_hash, id, refreshed_at, true FROM console_sessions
WHERE previous_refresh_hash IS NOT NULL AND revoked_at IS NULL AND expires_at > now()
ON CONFLICT (hash) DO NOTHING;

-- console_sessions.refresh_hash is now the hash of the session's first token only.
DROP INDEX console_sessions_previous;
ALTER TABLE console_sessions DROP COLUMN previous_refresh_hash;

-- +goose Down
ALTER TABLE console_sessions ADD COLUMN previous_refresh_hash bytea;
CREATE INDEX console_sessions_previous ON console_sessions (previous_refresh_hash);
UPDATE console_sessions s SET refresh_hash = t.hash
FROM console_refresh_tokens t WHERE t.session_id = s.id AND t.used_at IS NULL;
DROP TABLE console_refresh_tokens;
