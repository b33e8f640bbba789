-- name: CreateCLIToken :one
INSERT INTO cli_tokens (client_id, console_user_id, name, token_hash, token_prefix, role)
VALUES (@client_id, @console_user_id, @name, @token_hash, @token_prefix, sqlc.narg('role'))
RETURNING *;

-- name: ListCLITokens :many
-- Admins see every token of the client; others only their own (console_user_id = 0 means all).
SELECT t.*, u.email AS creator_email FROM cli_tokens t JOIN console_users u ON u.id = t.console_user_id
WHERE t.client_id = @client_id AND (@console_user_id::bigint = 0 OR t.console_user_id = @console_user_id)
ORDER BY t.id;

-- name: GetCLIToken :one
SELECT * FROM cli_tokens WHERE id = @id AND client_id = @client_id;

-- name: AuthCLIToken :one
-- Resolves a token to its client, its creator's current role there and the token's own
-- limit (NULL: none); revoked tokens and creators no longer in the client find nothing.
UPDATE cli_tokens t SET last_used_at = now()
FROM client_users cu
WHERE t.token_hash = @token_hash AND t.revoked_at IS NULL
  AND cu.client_id = t.client_id AND cu.console_user_id = t.console_user_id
RETURNING t.id, t.client_id, t.console_user_id, cu.role, t.role AS token_role;

-- name: RevokeCLIToken :execrows
UPDATE cli_tokens SET revoked_at = now() WHERE id = @id AND client_id = @client_id AND revoked_at IS NULL;

-- name: RevokeConsoleUserCLITokens :many
-- Every live CLI token of an account, in every client (its password changed, or it was
-- taken back from whoever registered it before its address was proven).
UPDATE cli_tokens SET revoked_at = now() WHERE console_user_id = @console_user_id AND revoked_at IS NULL
RETURNING id, client_id;
