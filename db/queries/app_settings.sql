-- name: SetAppRSAKey :exec
UPDATE apps SET rsa_public_key = @public_key, rsa_private_key_sealed = @private_key_sealed, updated_at = now()
WHERE id = @id;

-- name: SetAppSecureAuth :exec
UPDATE apps SET secure_auth = @secure_auth, updated_at = now() WHERE id = @id;

-- name: SetAppHMACAuth :exec
UPDATE apps SET hmac_auth = @hmac_auth, updated_at = now() WHERE id = @id;
