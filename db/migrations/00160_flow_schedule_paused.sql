-- +goose Up
-- A flow schedule can be paused from the console: its Temporal Schedule is paused and the
-- row remembers it, so lists show the state without asking Temporal.
ALTER TABLE flow_schedules ADD COLUMN paused boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE flow_schedules DROP COLUMN paused;
