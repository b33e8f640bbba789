package activities

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/flowdef"
	"github.com/heraldhq/herald/workflows/flow"
)

// Flows backs the interpreter of user-defined workflows (except channel deliveries, which
// go through the delivery pipeline).
type Flows struct {
	DB        *db.DB
	Temporal  client.Client
	TaskQueue string
	Fetcher   *Fetcher
	now       func() time.Time
}

// StepStates reads the inbox states of notifications written by earlier steps.
func (a *Flows) StepStates(ctx context.Context, in flow.StepStatesInput) (map[string]flowdef.StepState, error) {
	ids := make([]int64, 0, len(in.NotificationIDs))
	for _, id := range in.NotificationIDs {
		ids = append(ids, id)
	}
	rows, err := a.DB.NotificationStates(ctx, dbsqlc.NotificationStatesParams{AppID: in.AppID, Ids: ids})
	if err != nil {
		return nil, db.MapError(err)
	}
	byID := make(map[int64]dbsqlc.NotificationStatesRow, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	out := make(map[string]flowdef.StepState, len(in.NotificationIDs))
	for step, id := range in.NotificationIDs {
		r, ok := byID[id]
		if !ok {
			continue // deleted by the user: neither read nor seen
		}
		out[step] = flowdef.StepState{
			Delivered:  true,
			Seen:       r.SeenAt != nil || r.ReadAt != nil,
			Read:       r.ReadAt != nil,
			Clicked:    r.ClickedAt != nil,
			Interacted: r.ClickedAt != nil || r.State != nil,
		}
	}
	return out, nil
}

// Throttle counts a run against its key's fixed window and says whether it may go on.
func (a *Flows) Throttle(ctx context.Context, in flow.ThrottleInput) (bool, error) {
	now := time.Now
	if a.now != nil {
		now = a.now
	}
	window := time.Duration(in.WindowSeconds) * time.Second
	start := now().Truncate(window)
	n, err := a.DB.HitThrottle(ctx, dbsqlc.HitThrottleParams{AppID: in.AppID, Key: in.Key, WindowStart: start})
	if err != nil {
		return false, db.MapError(err)
	}
	return int(n) <= in.Limit, nil
}

// DigestEnqueue hands a trigger to its digest collector, starting the collector when none
// runs for the key (signal-with-start).
func (a *Flows) DigestEnqueue(ctx context.Context, in flow.DigestEnqueueInput) error {
	_, err := a.Temporal.SignalWithStartWorkflow(ctx, in.CollectorID, flow.DigestSignal, in.Trigger,
		client.StartWorkflowOptions{ID: in.CollectorID, TaskQueue: a.TaskQueue}, flow.DigestWorkflowName, in.Collector)
	return err
}

// RecordStep writes a line of the workflow log.
func (a *Flows) RecordStep(ctx context.Context, r flow.StepRecord) error {
	return db.MapError(a.DB.InsertFlowLog(ctx, dbsqlc.InsertFlowLogParams{
		AppID: r.AppID, RequestID: r.RequestID, FlowIdentifier: r.Workflow.Identifier, FlowVersion: int32(r.Workflow.Version),
		UserIdentifier: r.User, StepID: r.StepID, StepType: r.StepType, Outcome: r.Outcome, Detail: r.Detail,
		WorkflowID: flow.WorkflowID(r.Workflow.Identifier, r.RequestID, r.User),
	}))
}

// Fetch performs a fetch step's request.
func (a *Flows) Fetch(ctx context.Context, in flow.FetchInput) (map[string]any, error) {
	return a.Fetcher.Fetch(ctx, in)
}
