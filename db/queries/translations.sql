-- name: UpsertTranslation :one
INSERT INTO translations (app_id, locale, is_default, entries) VALUES (@app_id, @locale, @is_default, @entries)
ON CONFLICT (app_id, locale) DO UPDATE SET is_default = EXCLUDED.is_default, entries = EXCLUDED.entries, updated_at = now()
RETURNING *;

-- name: ClearDefaultTranslation :exec
UPDATE translations SET is_default = false, updated_at = now() WHERE app_id = @app_id AND is_default AND locale <> @keep_locale;

-- name: GetTranslation :one
SELECT * FROM translations WHERE app_id = @app_id AND locale = @locale;

-- name: GetDefaultTranslation :one
SELECT * FROM translations WHERE app_id = @app_id AND is_default;

-- name: ListTranslations :many
SELECT * FROM translations WHERE app_id = @app_id ORDER BY locale LIMIT @max_rows OFFSET @skip_rows;

-- name: CountTranslations :one
SELECT count(*) FROM translations WHERE app_id = @app_id;

-- name: DeleteTranslation :execrows
DELETE FROM translations WHERE app_id = @app_id AND locale = @locale;

-- name: TranslationsForLocales :many
-- The translations a recipient may use: its locale, the locale's language, and the default.
SELECT * FROM translations WHERE app_id = @app_id AND (locale = ANY(@locales::text[]) OR is_default);
