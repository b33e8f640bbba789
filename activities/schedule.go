package activities

import (
	"context"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/workflows/schedule"
)

// Schedules backs the schedule workflow.
type Schedules struct {
	DB *db.DB
}

// LoadSchedule reads a request's send time and whether it was cancelled.
func (a *Schedules) LoadSchedule(ctx context.Context, requestID uuid.UUID) (schedule.Loaded, error) {
	row, err := a.DB.GetScheduleOfRequest(ctx, requestID)
	if err != nil {
		return schedule.Loaded{}, db.MapError(err)
	}
	out := schedule.Loaded{Cancelled: row.Status == "cancelled"}
	if row.SendAt != nil {
		out.SendAt = *row.SendAt
	}
	return out, nil
}

// BeginScheduledSend moves a scheduled request to started, atomically with the check that it
// was not cancelled; false means it was.
func (a *Schedules) BeginScheduledSend(ctx context.Context, requestID uuid.UUID) (bool, error) {
	_, err := a.DB.BeginScheduledSend(ctx, requestID)
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
