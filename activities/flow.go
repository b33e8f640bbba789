package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/internal/flow/rundetail"
	"github.com/heraldhq/herald/internal/send/notify"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/visibility"
)

// Flows backs the interpreter of user-defined workflows (except channel deliveries, which
// go through the delivery pipeline) and their flow schedules.
type Flows struct {
	DB        *db.DB
	Temporal  client.Client
	TaskQueue string
	Fetcher   *Fetcher
	// Sends accepts the sends of flow schedules into the outbox.
	Sends Accepter
	now   func() time.Time
}

// Accepter accepts a send request (notify.Service does).
type Accepter interface {
	Accept(ctx context.Context, appID int64, body []byte, idempotencyKey string) (uuid.UUID, error)
}

// ScheduleSend sends one tick of a flow schedule: its stored body goes through the
// outbox like any send, keyed by the tick so a retry sends once. A deleted trigger sends
// nothing.
func (a *Flows) ScheduleSend(ctx context.Context, in flowrun.FlowScheduleSendInput) (string, error) {
	row, err := a.DB.GetFlowSchedule(ctx, dbsqlc.GetFlowScheduleParams{ID: in.ScheduleID, AppID: in.AppID})
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", db.MapError(err)
	}
	key := "recurring:" + in.TickID
	if len(key) > notify.MaxIdempotencyKeyLength {
		key = key[:notify.MaxIdempotencyKeyLength]
	}
	id, err := a.Sends.Accept(ctx, in.AppID, row.SendBody, key)
	switch herald.ErrorCode(err) {
	case herald.EINVALID:
		return "", temporal.NewNonRetryableApplicationError("stored recurring send is invalid: "+err.Error(), "Invalid", nil)
	case herald.EUNPROCESSABLE:
		// The workflow was deleted (a commit published without it) since the trigger
		// was made: retrying cannot help.
		return "", temporal.NewNonRetryableApplicationError("recurring send refused: "+err.Error(), "Unprocessable", nil)
	}
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

// StepStates reads the inbox states of notifications written by earlier steps.
func (a *Flows) StepStates(ctx context.Context, in flowrun.StepStatesInput) (map[string]flowdef.StepState, error) {
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
func (a *Flows) Throttle(ctx context.Context, in flowrun.ThrottleInput) (bool, error) {
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
// runs for the key (signal-with-start). A collector it starts carries the search attributes
// of the run that started it (HeraldRequestId: the first trigger's request).
func (a *Flows) DigestEnqueue(ctx context.Context, in flowrun.DigestEnqueueInput) error {
	run := in.Collector.Run
	_, err := a.Temporal.SignalWithStartWorkflow(ctx, in.CollectorID, flowrun.DigestSignal, in.Trigger,
		client.StartWorkflowOptions{
			ID: in.CollectorID, TaskQueue: a.TaskQueue,
			TypedSearchAttributes: visibility.Run(run.AppID, run.RequestID, run.Workflow.Identifier, run.Recipient.Identifier),
			StaticSummary:         fmt.Sprintf("Digest %s of workflow %s for %s", in.Collector.Step.ID, run.Workflow.Identifier, run.Recipient.Identifier),
		}, flowrun.DigestWorkflowName, in.Collector)
	return err
}

// RecordStep writes a line of the workflow log. A channel step recorded as failed also
// fails its message log row when that is still queued (its retries ran out).
func (a *Flows) RecordStep(ctx context.Context, r flowrun.StepRecord) error {
	wf := workflowID(ctx)
	if wf == "" {
		wf = flowrun.WorkflowID(r.Workflow.Identifier, r.RequestID, r.User)
	}
	if r.Outcome == "failed" && flowdef.IsChannelType(r.StepType, notify.Channels) {
		if id, err := uuid.Parse(r.RequestID); err == nil {
			if err := a.DB.GiveUpStepLog(ctx, dbsqlc.GiveUpStepLogParams{
				AppID: r.AppID, RequestID: id, UserIdentifier: r.User, Channel: r.StepType, StepKey: r.StepID, Reason: "gave up: " + r.Detail,
			}); err != nil {
				return db.MapError(err)
			}
		}
	}
	return db.MapError(a.DB.InsertFlowLog(ctx, dbsqlc.InsertFlowLogParams{
		AppID: r.AppID, RequestID: r.RequestID, FlowIdentifier: r.Workflow.Identifier, FlowVersion: int32(r.Workflow.Version),
		UserIdentifier: r.User, StepID: r.StepID, StepType: r.StepType, Outcome: r.Outcome, Detail: r.Detail,
		WorkflowID: wf, Input: stepInput(r), Evaluation: rundetail.EncodeEvaluation(r.Evaluation),
	}))
}

// stepInput is the input a step saw as the run timeline shows it (capped); none for a
// record without a step (a run that could not load).
func stepInput(r flowrun.StepRecord) json.RawMessage {
	if r.StepID == "" {
		return nil
	}
	in := rundetail.Input{Data: r.Data, Recipient: rundetail.Recipient{Identifier: r.User}}
	if r.Batch != nil {
		in.Batch = r.Batch
	}
	return in.Encode()
}

// LoadRun reads what a run started by a send needs: its pinned definition version, the
// send's data and category, and the recipient's profile. A run cancelled by key before it
// started says so. A version or request that is gone fails the run (not retried).
func (a *Flows) LoadRun(ctx context.Context, in flowrun.LoadRunInput) (flowrun.LoadedRun, error) {
	status, err := a.DB.FlowRunStatus(ctx, dbsqlc.FlowRunStatusParams{AppID: in.AppID, WorkflowID: in.WorkflowID})
	switch {
	case err == nil && status == flowrun.OutcomeCancelled:
		return flowrun.LoadedRun{Cancelled: true}, nil
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		return flowrun.LoadedRun{}, db.MapError(err)
	}
	raw, err := a.DB.GetFlowVersion(ctx, dbsqlc.GetFlowVersionParams{AppID: in.AppID, Identifier: in.Workflow.Identifier, Version: int32(in.Workflow.Version)})
	if errors.Is(err, pgx.ErrNoRows) {
		return flowrun.LoadedRun{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("workflow %q has no version %d", in.Workflow.Identifier, in.Workflow.Version), "NotFound", nil)
	}
	if err != nil {
		return flowrun.LoadedRun{}, db.MapError(err)
	}
	def, err := flowdef.Parse(raw, flowdef.Checker{Channels: notify.Channels})
	if err != nil {
		return flowrun.LoadedRun{}, temporal.NewNonRetryableApplicationError("stored definition is invalid: "+err.Error(), "Invalid", nil)
	}
	out := flowrun.LoadedRun{Definition: *def}
	requestID, err := uuid.Parse(in.RequestID)
	if err != nil {
		return flowrun.LoadedRun{}, temporal.NewNonRetryableApplicationError("bad request id "+in.RequestID, "Invalid", nil)
	}
	row, err := a.DB.DeliveryRequestContent(ctx, requestID)
	if errors.Is(err, pgx.ErrNoRows) {
		return flowrun.LoadedRun{}, temporal.NewNonRetryableApplicationError("the request is gone", "NotFound", nil)
	}
	if err != nil {
		return flowrun.LoadedRun{}, db.MapError(err)
	}
	var req notify.SendRequest
	if err := json.Unmarshal(row.Payload, &req); err != nil {
		return flowrun.LoadedRun{}, temporal.NewNonRetryableApplicationError("stored request is unreadable", "Invalid", err)
	}
	out.Category = req.Notification.Category
	if len(req.Data) > 0 {
		_ = json.Unmarshal(req.Data, &out.Data)
	}
	users, err := a.DB.DeliveryUsers(ctx, dbsqlc.DeliveryUsersParams{AppID: in.AppID, Ids: []int64{in.UserID}})
	if err != nil {
		return flowrun.LoadedRun{}, db.MapError(err)
	}
	if len(users) == 1 {
		_ = json.Unmarshal(users[0].Profile, &out.Profile)
	}
	return out, nil
}

// FinishRun records how a run ended; a run cancelled meanwhile stays cancelled.
func (a *Flows) FinishRun(ctx context.Context, in flowrun.FinishRunInput) error {
	return db.MapError(a.DB.FinishFlowRun(ctx, dbsqlc.FinishFlowRunParams{AppID: in.AppID, WorkflowID: in.WorkflowID, Status: in.Outcome}))
}

// Fetch performs a fetch step's request.
func (a *Flows) Fetch(ctx context.Context, in flowrun.FetchInput) (map[string]any, error) {
	return a.Fetcher.Fetch(ctx, in)
}
