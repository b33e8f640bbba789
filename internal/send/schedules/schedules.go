// Package schedules lists and cancels scheduled notifications: sends whose sendAt lies in
// the future and which wait in a schedule/<requestId> workflow.
package schedules

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/workflows/schedule"
)

// Canceler cancels a workflow run (the Temporal client does).
type Canceler interface {
	CancelWorkflow(ctx context.Context, workflowID, runID string) error
}

// Scheduled is a scheduled notification as the management API shows it.
type Scheduled struct {
	ID             int64          `json:"id"`
	RequestID      string         `json:"requestId"`
	WorkflowID     string         `json:"workflowId"`
	SendAt         time.Time      `json:"sendAt"`
	Status         string         `json:"status"`
	Notification   herald.Content `json:"notification"`
	RecipientCount int32          `json:"recipientCount"`
	CreatedAt      time.Time      `json:"createdAt"`
	CancelledAt    *time.Time     `json:"cancelledAt"`
	SentAt         *time.Time     `json:"sentAt"`
}

// Service lists and cancels scheduled notifications.
type Service struct {
	db       *db.DB
	temporal Canceler
	log      *slog.Logger
}

// NewService returns a Service.
func NewService(d *db.DB, c Canceler, log *slog.Logger) *Service {
	return &Service{db: d, temporal: c, log: log}
}

// List returns an app's scheduled notifications, soonest first; with all set it includes
// the ones already sent or cancelled.
func (s *Service) List(ctx context.Context, appID int64, page, limit int, all bool) ([]Scheduled, error) {
	rows, err := s.db.ListScheduled(ctx, dbsqlc.ListScheduledParams{
		AppID: appID, IncludeDone: all, MaxRows: int32(limit), SkipRows: int32((page - 1) * limit),
	})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Scheduled, 0, len(rows))
	for _, r := range rows {
		// A payload that does not decode lists with no content rather than hiding the row.
		var req herald.SendRequest
		_ = herald.DecodeSendRequest(r.Payload, &req)
		out = append(out, Scheduled{
			ID: r.ID, RequestID: r.RequestID.String(), WorkflowID: schedule.WorkflowID(r.RequestID),
			SendAt: r.SendAt, Status: r.Status, Notification: req.Notification, RecipientCount: r.RecipientCount,
			CreatedAt: r.CreatedAt, CancelledAt: r.CancelledAt, SentAt: r.SentAt,
		})
	}
	return out, nil
}

// Cancel stops a scheduled notification of the app before it goes out. The database change
// decides (the schedule re-checks it when its timer fires); cancelling the Temporal run just
// ends the wait early.
func (s *Service) Cancel(ctx context.Context, appID, id int64) error {
	requestID, err := s.db.CancelScheduled(ctx, dbsqlc.CancelScheduledParams{ID: id, AppID: appID})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) != herald.ENOTFOUND {
			return err
		}
		row, lookErr := s.db.GetScheduled(ctx, dbsqlc.GetScheduledParams{ID: id, AppID: appID})
		if lookErr != nil {
			return herald.NotFound("scheduled notification")
		}
		return herald.Errorf(herald.ECONFLICT, "scheduled notification %d is already %s", id, row.Status)
	}
	s.cancelRun(ctx, requestID)
	return nil
}

func (s *Service) cancelRun(ctx context.Context, requestID uuid.UUID) {
	wf := schedule.WorkflowID(requestID)
	if err := s.temporal.CancelWorkflow(context.WithoutCancel(ctx), wf, ""); err != nil {
		s.log.Info("schedule run not cancelled (it re-checks the database when it wakes)", "workflowId", wf, "error", err)
	}
}
