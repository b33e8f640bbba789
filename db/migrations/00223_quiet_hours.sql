-- +goose Up
-- A user's quiet hours: a daily window from start_second to end_second after local midnight
-- (start > end crosses midnight; equal: no window) plus whole quiet days (days: a bit per
-- weekday, 1 = Sunday … 64 = Saturday), in the time zone of the user's profile key timezone.
-- Non-critical external messages that fall inside are held (message_logs.status 'held') and
-- released by their run's timer (docs/preferences.md#quiet-hours).
CREATE TABLE quiet_hours (
    app_id       bigint      NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    start_second integer     NOT NULL CHECK (start_second BETWEEN 0 AND 86399),
    end_second   integer     NOT NULL CHECK (end_second BETWEEN 0 AND 86399),
    days         smallint    NOT NULL DEFAULT 0 CHECK (days BETWEEN 0 AND 126),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id)
);
CREATE INDEX quiet_hours_app ON quiet_hours (app_id);

-- +goose Down
DROP TABLE quiet_hours;
