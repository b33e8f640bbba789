package flow

import (
	"context"
	"log/slog"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// Canceler cancels a workflow run (the Temporal client does).
type Canceler interface {
	CancelWorkflow(ctx context.Context, workflowID, runID string) error
}

// MaxCancelRecipients caps the recipients of one cancellation.
const MaxCancelRecipients = 1000

// Cancellation is the outcome of cancelling by key.
type Cancellation struct {
	// Cancelled counts runs stopped; Failed counts runs marked cancelled in the database
	// whose Temporal cancel failed (one not started yet still will not start: its first
	// activity sees the mark; one already running may go on).
	Cancelled int `json:"cancelled"`
	Failed    int `json:"failed"`
}

// CancelByKey cancels every running run of the app started with a cancellation key,
// optionally only those of some recipients. Body: {"cancellationKey": "...", "recipients":
// ["user", ...]}.
func (s *Service) CancelByKey(ctx context.Context, appID int64, body []byte, temporal Canceler, log *slog.Logger) (Cancellation, error) {
	var p herald.Problems
	top := js.Fields(body)
	if top == nil {
		return Cancellation{}, herald.Invalid("body must be a JSON object")
	}
	key, ok := js.String(top["cancellationKey"])
	if !ok || strings.TrimSpace(key) == "" {
		p.Addf("cancellationKey must be a non-empty string")
	}
	recipients := []string{}
	if raw := top["recipients"]; js.Present(raw) {
		list, ok := js.Strings(raw)
		switch {
		case !ok:
			p.Addf("recipients must be an array of strings")
		case len(list) > MaxCancelRecipients:
			p.Addf("recipients must contain no more than %d elements", MaxCancelRecipients)
		default:
			recipients = list
		}
	}
	if err := p.Err(); err != nil {
		return Cancellation{}, err
	}
	ids, err := s.db.CancelFlowRuns(ctx, dbsqlc.CancelFlowRunsParams{AppID: appID, CancellationKey: &key, UserIdentifiers: recipients})
	if err != nil {
		return Cancellation{}, db.MapError(err)
	}
	return cancelAll(ctx, ids, temporal, log), nil
}
