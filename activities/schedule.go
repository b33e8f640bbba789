package activities

import (
	"context"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/internal/send/schedules"
	"github.com/heraldhq/herald/workflows/schedule"
)

// Schedules backs the schedule workflow (a send held until its sendAt): adapters over the
// scheduled sends' service.
type Schedules struct {
	Scheduled *schedules.Service
}

// LoadSchedule reads a request's send time and whether it was cancelled.
func (a *Schedules) LoadSchedule(ctx context.Context, requestID uuid.UUID) (schedule.Loaded, error) {
	return a.Scheduled.Load(ctx, requestID)
}

// BeginScheduledSend moves a scheduled request to started, atomically with the check that it
// was not cancelled; false means it was.
func (a *Schedules) BeginScheduledSend(ctx context.Context, requestID uuid.UUID) (bool, error) {
	return a.Scheduled.Begin(ctx, requestID)
}
