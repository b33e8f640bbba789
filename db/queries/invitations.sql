-- name: CreateInvitation :one
-- Re-inviting an address with an open invitation renews that invitation.
INSERT INTO invitations (client_id, email, role, code_hash, invited_by, expires_at)
VALUES (@client_id, @email, @role, @code_hash, @invited_by, @expires_at)
ON CONFLICT (client_id, lower(email)) WHERE accepted_at IS NULL DO UPDATE
SET role = EXCLUDED.role, code_hash = EXCLUDED.code_hash, invited_by = EXCLUDED.invited_by,
    expires_at = EXCLUDED.expires_at, updated_at = now()
RETURNING *;

-- name: ListOpenInvitations :many
SELECT * FROM invitations WHERE client_id = @client_id AND accepted_at IS NULL ORDER BY id;

-- name: GetInvitation :one
SELECT * FROM invitations WHERE id = @id;

-- name: GetInvitationByCode :one
SELECT i.*, c.name AS client_name FROM invitations i JOIN clients c ON c.id = i.client_id
WHERE i.code_hash = @code_hash;

-- name: RenewInvitation :one
UPDATE invitations SET code_hash = @code_hash, expires_at = @expires_at, updated_at = now()
WHERE id = @id AND client_id = @client_id AND accepted_at IS NULL
RETURNING *;

-- name: DeleteInvitation :execrows
DELETE FROM invitations WHERE id = @id AND client_id = @client_id AND accepted_at IS NULL;

-- name: AcceptInvitation :execrows
UPDATE invitations SET accepted_at = now(), updated_at = now()
WHERE id = @id AND accepted_at IS NULL AND expires_at > now();
