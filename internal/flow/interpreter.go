package flow

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/internal/flow/rundetail"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// Runs is what the interpreter of flow runs (workflows/flowrun) reads and records through
// its activities: a run's pinned definition and send, its steps' inbox states, throttle
// windows, the workflow log, how it ended, and the sends of flow schedules.
type Runs struct {
	DB *db.DB
	// Sends accepts the sends of flow schedules into the outbox.
	Sends Accepter
	// Now is the clock of throttle windows (nil: time.Now).
	Now func() time.Time
}

// Accepter accepts a send request (send.Service does).
type Accepter interface {
	Accept(ctx context.Context, appID int64, body []byte, idempotencyKey string) (uuid.UUID, error)
}

// ScheduleSend sends one tick of a flow schedule: its stored body goes through the
// outbox like any send, keyed by the tick so a retry sends once. A deleted trigger sends
// nothing. A stored body that is invalid (EINVALID) or refused (EUNPROCESSABLE: its
// workflow was deleted since) cannot succeed on a retry.
func (a *Runs) ScheduleSend(ctx context.Context, in flowrun.FlowScheduleSendInput) (string, error) {
	row, err := a.DB.GetFlowSchedule(ctx, dbsqlc.GetFlowScheduleParams{ID: in.ScheduleID, AppID: in.AppID})
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", db.MapError(err)
	}
	key := "recurring:" + in.TickID
	if len(key) > herald.MaxIdempotencyKeyLength {
		key = key[:herald.MaxIdempotencyKeyLength]
	}
	id, err := a.Sends.Accept(ctx, in.AppID, row.SendBody, key)
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

// StepStates reads the inbox states of notifications written by earlier steps.
func (a *Runs) StepStates(ctx context.Context, in flowrun.StepStatesInput) (map[string]flowdef.StepState, error) {
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
func (a *Runs) Throttle(ctx context.Context, in flowrun.ThrottleInput) (bool, error) {
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	window := time.Duration(in.WindowSeconds) * time.Second
	start := now().Truncate(window)
	n, err := a.DB.HitThrottle(ctx, dbsqlc.HitThrottleParams{AppID: in.AppID, Key: in.Key, WindowStart: start})
	if err != nil {
		return false, db.MapError(err)
	}
	return int(n) <= in.Limit, nil
}

// RecordStep writes a line of the workflow log of the run wf ("": the run the record
// names). A channel step recorded as failed also fails its message log row when that is
// still queued (its retries ran out).
func (a *Runs) RecordStep(ctx context.Context, r flowrun.StepRecord, wf string) error {
	if wf == "" {
		wf = flowrun.WorkflowID(r.Flow.Identifier, r.RequestID, r.User)
	}
	if r.Outcome == "failed" && flowdef.IsChannelType(r.StepType, herald.Channels) {
		if id, err := uuid.Parse(r.RequestID); err == nil {
			if err := a.DB.GiveUpStepLog(ctx, dbsqlc.GiveUpStepLogParams{
				AppID: r.AppID, RequestID: id, UserIdentifier: r.User, Channel: r.StepType, StepKey: r.StepID, Reason: "gave up: " + r.Detail,
			}); err != nil {
				return db.MapError(err)
			}
		}
	}
	return db.MapError(a.DB.InsertFlowLog(ctx, dbsqlc.InsertFlowLogParams{
		AppID: r.AppID, RequestID: r.RequestID, FlowIdentifier: r.Flow.Identifier, FlowVersion: int32(r.Flow.Version),
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

// Load reads what a run started by a send needs: its pinned definition version, the
// send's data and category, and the recipient's profile. A run cancelled by key before it
// started says so. A version or request that is gone is ENOTFOUND, an unreadable one EINVALID: retrying
// cannot help.
func (a *Runs) Load(ctx context.Context, in flowrun.LoadRunInput) (flowrun.LoadedRun, error) {
	status, err := a.DB.FlowRunStatus(ctx, dbsqlc.FlowRunStatusParams{AppID: in.AppID, WorkflowID: in.WorkflowID})
	switch {
	case err == nil && status == flowrun.OutcomeCancelled:
		return flowrun.LoadedRun{Cancelled: true}, nil
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		return flowrun.LoadedRun{}, db.MapError(err)
	}
	raw, err := a.DB.GetFlowVersion(ctx, dbsqlc.GetFlowVersionParams{AppID: in.AppID, Identifier: in.Flow.Identifier, Version: int32(in.Flow.Version)})
	if errors.Is(err, pgx.ErrNoRows) {
		return flowrun.LoadedRun{}, herald.Errorf(herald.ENOTFOUND, "workflow %q has no version %d", in.Flow.Identifier, in.Flow.Version)
	}
	if err != nil {
		return flowrun.LoadedRun{}, db.MapError(err)
	}
	// The run compiles what it loads (flowdef.Definition.Compile); refusing here names the
	// problem before the run starts.
	prog, err := flowdef.Compile(raw, flowdef.Checker{Channels: herald.Channels})
	if err != nil {
		return flowrun.LoadedRun{}, herald.Errorf(herald.EINVALID, "workflow %q version %d does not compile: %s", in.Flow.Identifier, in.Flow.Version, err.Error())
	}
	out := flowrun.LoadedRun{Definition: prog.Definition}
	requestID, err := uuid.Parse(in.RequestID)
	if err != nil {
		return flowrun.LoadedRun{}, herald.Errorf(herald.EINVALID, "bad request id %s", in.RequestID)
	}
	row, err := a.DB.DeliveryRequestContent(ctx, requestID)
	if errors.Is(err, pgx.ErrNoRows) {
		return flowrun.LoadedRun{}, herald.Errorf(herald.ENOTFOUND, "the request is gone")
	}
	if err != nil {
		return flowrun.LoadedRun{}, db.MapError(err)
	}
	var req herald.SendRequest
	if err := herald.DecodeSendRequest(row.Payload, &req); err != nil {
		return flowrun.LoadedRun{}, err
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

// Finish records how a run ended; a run cancelled meanwhile stays cancelled.
func (a *Runs) Finish(ctx context.Context, in flowrun.FinishRunInput) error {
	return db.MapError(a.DB.FinishFlowRun(ctx, dbsqlc.FinishFlowRunParams{AppID: in.AppID, WorkflowID: in.WorkflowID, Status: in.Outcome}))
}
