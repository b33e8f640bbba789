-- name: SetAppRSAKey :exec
UPDATE apps SET rsa_public_key = @public_key, rsa_private_key_sealed = @private_key_sealed, updated_at = now()
WHERE id = @id;

-- name: SetAppSecureAuth :exec
UPDATE apps SET secure_auth = @secure_auth, updated_at = now() WHERE id = @id;

-- name: SetAppHMACAuth :exec
UPDATE apps SET hmac_auth = @hmac_auth, updated_at = now() WHERE id = @id;

-- name: SetAppVAPIDKeys :exec
-- Gives an app its web push key pair unless it has one (concurrent callers keep the first).
UPDATE apps SET vapid_public_key = @public_key, vapid_private_key_sealed = @private_key_sealed, updated_at = now()
WHERE id = @id AND vapid_public_key IS NULL;

-- name: SetAppAllowedOrigins :exec
UPDATE apps SET allowed_origins = @allowed_origins::text[], updated_at = now() WHERE id = @id;
