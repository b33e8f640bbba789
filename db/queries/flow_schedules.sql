-- name: InsertFlowSchedule :one
INSERT INTO flow_schedules (app_id, schedule_id, flow_identifier, cron, timezone, send_body)
VALUES (@app_id, @schedule_id, @flow_identifier, @cron, @timezone, @send_body)
RETURNING *;

-- name: ListFlowSchedules :many
SELECT * FROM flow_schedules WHERE app_id = @app_id ORDER BY id;

-- name: GetFlowSchedule :one
SELECT * FROM flow_schedules WHERE id = @id AND app_id = @app_id;

-- name: DeleteFlowSchedule :execrows
DELETE FROM flow_schedules WHERE id = @id AND app_id = @app_id;

-- name: SetFlowSchedulePaused :one
UPDATE flow_schedules SET paused = @paused WHERE id = @id AND app_id = @app_id
RETURNING *;
