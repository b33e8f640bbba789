-- name: CreateClient :one
INSERT INTO clients (name) VALUES (@name) RETURNING *;

-- name: UpdateClient :one
UPDATE clients SET name = @name, updated_at = now() WHERE id = @id RETURNING *;

-- name: GetClient :one
SELECT * FROM clients WHERE id = @id;

-- name: ListClientsOfUser :many
SELECT c.*, cu.role FROM clients c
JOIN client_users cu ON cu.client_id = c.id
WHERE cu.console_user_id = @console_user_id
ORDER BY c.id;

-- name: CountClientsOfUser :one
SELECT count(*) FROM client_users WHERE console_user_id = @console_user_id;

-- name: AddClientUser :one
INSERT INTO client_users (client_id, console_user_id, role) VALUES (@client_id, @console_user_id, @role)
ON CONFLICT (client_id, console_user_id) DO UPDATE SET role = client_users.role
RETURNING *;

-- name: GetMembership :one
SELECT * FROM client_users WHERE client_id = @client_id AND console_user_id = @console_user_id;

-- name: ListClientUsers :many
SELECT cu.*, u.email, u.name FROM client_users cu
JOIN console_users u ON u.id = cu.console_user_id
WHERE cu.client_id = @client_id
ORDER BY cu.id;

-- name: SetClientUserRole :one
UPDATE client_users SET role = @role WHERE client_id = @client_id AND console_user_id = @console_user_id RETURNING *;

-- name: RemoveClientUser :execrows
DELETE FROM client_users WHERE client_id = @client_id AND console_user_id = @console_user_id;

-- name: CountOwners :one
SELECT count(*) FROM client_users WHERE client_id = @client_id AND role = 'owner';

-- name: ShareClient :one
-- Whether two console users have a client in common (to see each other's profile).
SELECT EXISTS (
    SELECT 1 FROM client_users a JOIN client_users b ON a.client_id = b.client_id
    WHERE a.console_user_id = @a AND b.console_user_id = @b
);
