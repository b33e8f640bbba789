-- +goose Up

-- A request is critical when the category or workflow it names is marked critical at accept
-- (issue 28, item 4). The notify service sets the mark when it stores the request, so the
-- relay learns it from the row it claims, with no join to categories or flows per claim.
ALTER TABLE notification_requests ADD COLUMN critical boolean NOT NULL DEFAULT false;

-- The relay claims critical fresh requests before any other backlog: this index holds only
-- those, so looking for them costs nothing when there are none.
CREATE INDEX notification_requests_fresh_critical
    ON notification_requests (created_at, id)
    WHERE status = 'accepted' AND workflow_id IS NULL AND send_at IS NULL AND critical;

-- +goose Down
DROP INDEX notification_requests_fresh_critical;
ALTER TABLE notification_requests DROP COLUMN critical;
