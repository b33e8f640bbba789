-- name: InsertAuditEvent :exec
-- One event for one client (NULL: operators only).
INSERT INTO audit_events (client_id, action, actor_id, actor_email, via_token_id, target_type, target_id, target_label, ip, user_agent, details)
VALUES (sqlc.narg(client_id), @action, sqlc.narg(actor_id),
        COALESCE((SELECT u.email FROM console_users u WHERE u.id = sqlc.narg(actor_id)), ''),
        sqlc.narg(via_token_id), @target_type, @target_id, @target_label, @ip, @user_agent, @details);

-- name: InsertAccountAuditEvent :exec
-- An event about a console account: one row for each client the account belongs to, or a
-- single row without a client when it belongs to none.
INSERT INTO audit_events (client_id, action, actor_id, actor_email, via_token_id, target_type, target_id, target_label, ip, user_agent, details)
SELECT m.client_id, @action, sqlc.narg(actor_id),
       COALESCE((SELECT u.email FROM console_users u WHERE u.id = sqlc.narg(actor_id)), ''),
       NULL, @target_type, @target_id, @target_label, @ip, @user_agent, @details
FROM (
    SELECT cu.client_id FROM client_users cu WHERE cu.console_user_id = @account_id
    UNION ALL
    SELECT NULL::bigint WHERE NOT EXISTS (SELECT 1 FROM client_users cu WHERE cu.console_user_id = @account_id)
) m;

-- name: ListAuditEvents :many
-- A page of a client's events, newest first, with optional filters.
SELECT * FROM audit_events
WHERE client_id = @client_id
  AND (@action::text = '' OR action = @action::text)
  AND (sqlc.narg(actor_id)::bigint IS NULL OR actor_id = sqlc.narg(actor_id)::bigint)
  AND (sqlc.narg(from_time)::timestamptz IS NULL OR created_at >= sqlc.narg(from_time)::timestamptz)
  AND (sqlc.narg(to_time)::timestamptz IS NULL OR created_at < sqlc.narg(to_time)::timestamptz)
ORDER BY created_at DESC, id DESC
LIMIT @lim OFFSET @off;

-- name: CountAuditEvents :one
SELECT count(*) FROM audit_events
WHERE client_id = @client_id
  AND (@action::text = '' OR action = @action::text)
  AND (sqlc.narg(actor_id)::bigint IS NULL OR actor_id = sqlc.narg(actor_id)::bigint)
  AND (sqlc.narg(from_time)::timestamptz IS NULL OR created_at >= sqlc.narg(from_time)::timestamptz)
  AND (sqlc.narg(to_time)::timestamptz IS NULL OR created_at < sqlc.narg(to_time)::timestamptz);

-- name: PruneAuditEvents :execrows
-- Deletes up to lim events older than the cutoff (in batches, so no delete holds locks long).
DELETE FROM audit_events d WHERE d.id IN (
    SELECT o.id FROM audit_events o WHERE o.created_at < @cutoff::timestamptz ORDER BY o.created_at LIMIT @lim::int
);
