-- One-click unsubscribe (internal/audience/unsubscribe): writes the same category × channel
-- switches as the preferences API. Scoped by app: the user and the category must both
-- belong to it.

-- name: UnsubscribeCategoryChannel :execrows
-- Turns a channel off for a user in a category; 0 rows when the user or the category is
-- not (or no longer) the app's. Idempotent.
INSERT INTO preferences (app_id, user_id, category_id, channel, enabled)
SELECT u.app_id, u.id, c.id, @channel::text, false
FROM users u
JOIN categories c ON c.app_id = u.app_id AND c.id = @category_id
WHERE u.app_id = @app_id AND u.id = @user_id
ON CONFLICT (user_id, COALESCE(category_id, 0), channel)
DO UPDATE SET enabled = false, updated_at = now();

-- name: UnsubscribeTarget :one
-- What the unsubscribe page names: the app, the user and the category of a token.
SELECT a.name AS app_name, u.identifier AS user_identifier, c.identifier AS category_identifier, c.name AS category_name
FROM users u
JOIN apps a ON a.id = u.app_id
JOIN categories c ON c.app_id = u.app_id AND c.id = @category_id
WHERE u.app_id = @app_id AND u.id = @user_id;

-- name: PreferencePageUser :one
-- Who a preference page token opens the page for: the app's name and the user's
-- identifier, both scoped by the token's app.
SELECT a.name AS app_name, u.identifier AS user_identifier
FROM users u
JOIN apps a ON a.id = u.app_id
WHERE u.app_id = @app_id AND u.id = @user_id;

-- name: EnqueueUnsubscribedEvent :exec
-- The user.unsubscribed event of an unsubscribe, for the app's webhook endpoints (in the
-- transaction of the switch it turned off).
SELECT webhook_enqueue(ARRAY[u.app_id], ARRAY['user.unsubscribed'::text],
    ARRAY[jsonb_build_object('userIdentifier', u.identifier, 'category', c.identifier, 'channel', @channel::text, 'via', 'link')],
    ARRAY[c.identifier], ARRAY[NULL::text], ARRAY[@channel::text])
FROM users u
JOIN categories c ON c.app_id = u.app_id AND c.id = @category_id
WHERE u.app_id = @app_id AND u.id = @user_id;
