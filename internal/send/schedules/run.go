package schedules

import (
	"context"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/workflows/schedule"
)

// Load reads what a scheduled request's schedule/<requestId> run waits for: its send time
// and whether it was cancelled meanwhile.
func (s *Service) Load(ctx context.Context, requestID uuid.UUID) (schedule.Loaded, error) {
	row, err := s.db.GetScheduleOfRequest(ctx, requestID)
	if err != nil {
		return schedule.Loaded{}, db.MapError(err)
	}
	out := schedule.Loaded{Cancelled: row.Status == "cancelled"}
	if row.SendAt != nil {
		out.SendAt = *row.SendAt
	}
	return out, nil
}

// Begin moves a scheduled request to started, atomically with the check that it was not
// cancelled; false means it was (a cancel that won the race, or a request that is gone).
func (s *Service) Begin(ctx context.Context, requestID uuid.UUID) (bool, error) {
	if _, err := s.db.BeginScheduledSend(ctx, requestID); err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
