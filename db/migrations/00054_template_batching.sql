-- +goose Up

-- A template's content for a channel may have a second form used after a digest step
-- (rendered with batch.count and batch.items); NULL means the regular content serves both.
ALTER TABLE template_contents ADD COLUMN batching_content jsonb;

-- +goose Down
ALTER TABLE template_contents DROP COLUMN batching_content;
