package pipeline

import (
	"context"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/workflows/send"
)

// maxBacklogLoad bounds the messages one LoadQueuedJobs call returns (the run asks for at
// most its free queue room, a few thousand).
const maxBacklogLoad = 5000

// LoadQueuedJobs returns the next queued external messages of a send run's backlog: the
// rows its slices left in the message log while its queue was full (see
// send.InAppFirstChange). Only rows still queued come back, so a message sent or failed
// meanwhile is not handed out again.
func (a *Service) LoadQueuedJobs(ctx context.Context, in send.LoadQueuedInput) (send.LoadQueuedResult, error) {
	limit := min(max(in.Limit, 1), maxBacklogLoad)
	rows, err := a.DB.BacklogMessageLogs(ctx, dbsqlc.BacklogMessageLogsParams{
		RequestIds: in.Backlog.RequestIDs, FromID: in.Backlog.FromLogID, MaxRows: int32(limit),
	})
	if err != nil {
		return send.LoadQueuedResult{}, db.MapError(err)
	}
	var res send.LoadQueuedResult
	for _, r := range rows {
		res.Jobs = append(res.Jobs, send.Job{LogID: r.ID, Channel: r.Channel})
	}
	return res, nil
}
