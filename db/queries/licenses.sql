-- name: GetLicense :one
SELECT * FROM licenses WHERE client_id = @client_id;

-- name: StoreLicense :execrows
-- Keeps the newest license of a client (ties broken by id): an older one, or the same one
-- again (a replay), changes nothing.
INSERT INTO licenses (client_id, license_id, token, plan, limits, issued_at, expires_at)
VALUES (@client_id, @license_id, @token, @plan, @limits, @issued_at, @expires_at)
ON CONFLICT (client_id) DO UPDATE
SET license_id = excluded.license_id, token = excluded.token, plan = excluded.plan, limits = excluded.limits,
    issued_at = excluded.issued_at, expires_at = excluded.expires_at, updated_at = now()
WHERE licenses.issued_at < excluded.issued_at
   OR (licenses.issued_at = excluded.issued_at AND licenses.license_id < excluded.license_id);

-- name: ClientExists :one
SELECT EXISTS (SELECT 1 FROM clients WHERE id = @id);
