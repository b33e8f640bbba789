package flow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/internal/flow/runnable"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/payloadschema"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/visibility"
)

// MaxSchedulesPerApp caps an app's flow schedules.
const MaxSchedulesPerApp = 100

// Schedule is a flow schedule of a published workflow, as the API shows it.
type Schedule struct {
	ID         int64           `json:"id"`
	Workflow   string          `json:"workflow"`
	Cron       string          `json:"cron"`
	Timezone   string          `json:"timezone"`
	SendTo     json.RawMessage `json:"sendTo"`
	Data       json.RawMessage `json:"data,omitempty"`
	ScheduleID string          `json:"scheduleId"`
	// Paused is true while the schedule sends nothing (SetPaused).
	Paused    bool      `json:"paused"`
	CreatedAt time.Time `json:"createdAt"`
}

// ScheduleService keeps flow schedules: a row per trigger (its audience and data) and
// a Temporal Schedule that sends it on every tick of its cron expression, in its time zone.
type ScheduleService struct {
	db        *db.DB
	temporal  client.Client
	taskQueue string
	log       *slog.Logger
}

// NewScheduleService returns a ScheduleService that schedules on taskQueue.
func NewScheduleService(d *db.DB, temporal client.Client, taskQueue string, log *slog.Logger) *ScheduleService {
	return &ScheduleService{db: d, temporal: temporal, taskQueue: taskQueue, log: log}
}

// scheduleInput is a validated create body.
type scheduleInput struct {
	workflow, cron, timezone string
	sendBody                 json.RawMessage
}

// parseSchedule validates {workflow, cron, timezone, sendTo, data}, reporting every
// problem; the audience and data are checked as a send's.
func (s *ScheduleService) parseSchedule(ctx context.Context, appID int64, body []byte) (scheduleInput, error) {
	top := js.Fields(body)
	if top == nil {
		return scheduleInput{}, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	var in scheduleInput
	wf, wfOK := js.String(top["workflow"])
	wfOK = wfOK && strings.TrimSpace(wf) != ""
	if !wfOK {
		p.Addf("workflow must be a non-empty string")
	}
	in.workflow = wf
	if cron, ok := js.String(top["cron"]); !ok {
		p.Addf("cron must be a string")
	} else {
		p = append(p, flowdef.CheckCron(cron)...)
		in.cron = strings.TrimSpace(cron)
	}
	in.timezone = "UTC"
	if raw := top["timezone"]; js.Present(raw) {
		tz, ok := js.String(raw)
		if !ok {
			p.Addf("timezone must be a string")
		} else if msg := flowdef.CheckTimezone(tz); msg != "" {
			p.Addf("%s", msg)
		} else if tz != "" {
			in.timezone = tz
		}
	}
	// The stored body is what every tick sends; a placeholder identifier keeps a bad
	// workflow field from being reported twice.
	ident := wf
	if !wfOK {
		ident = "workflow"
	}
	sendBody := map[string]any{"notification": map[string]any{"workflow": map[string]any{"identifier": ident}}}
	for _, k := range []string{"sendTo", "data"} {
		if raw := top[k]; js.Present(raw) {
			sendBody[k] = raw
		}
	}
	in.sendBody, _ = json.Marshal(sendBody)
	if _, err := send.Parse(in.sendBody); err != nil {
		var he *herald.Error
		if !errors.As(err, &he) {
			return scheduleInput{}, err
		}
		p = append(p, he.Details...)
	}
	if len(p) == 0 {
		v, err := runnable.Lookup(ctx, s.db.Queries, appID, wf)
		var un *runnable.UnavailableError
		switch {
		case errors.As(err, &un):
			p.Addf("%s", un.Error())
		case err != nil:
			return scheduleInput{}, err
		case v.HasPayloadSchema:
			// Every tick sends the same data: data the version's payload schema refuses
			// would fail each tick, so it is refused now, every problem listed.
			probs, err := s.checkData(ctx, appID, wf, v, top["data"])
			if err != nil {
				return scheduleInput{}, err
			}
			for _, f := range probs {
				p.Addf("%s: %s (the payload schema of workflow %q version %d)", strings.TrimPrefix(f.Pointer, "/"), f.Message, wf, v.Number)
			}
		}
	}
	return in, p.Err()
}

// checkData validates a trigger's data against the payload schema of the version it runs.
func (s *ScheduleService) checkData(ctx context.Context, appID int64, wf string, v runnable.Version, data json.RawMessage) ([]herald.FieldProblem, error) {
	raw, err := s.db.FlowVersionPayloadSchema(ctx, dbsqlc.FlowVersionPayloadSchemaParams{AppID: appID, FlowID: v.FlowID, Version: v.Number})
	if err != nil {
		return nil, db.MapError(err)
	}
	if raw == nil {
		return nil, nil
	}
	sch, probs := payloadschema.Compile(raw)
	if sch == nil {
		// Checked at save; a schema that no longer compiles is a bug, not the caller's.
		return nil, fmt.Errorf("payload schema of workflow %q version %d: %v", wf, v.Number, probs)
	}
	if !js.Present(data) {
		data = nil
	}
	return sch.Validate(data, "/data"), nil
}

// Create validates a trigger, stores it and creates its Temporal Schedule. Nothing stays
// stored when the schedule cannot be created.
func (s *ScheduleService) Create(ctx context.Context, appID int64, body []byte) (Schedule, error) {
	in, err := s.parseSchedule(ctx, appID, body)
	if err != nil {
		return Schedule{}, err
	}
	existing, err := s.db.ListFlowSchedules(ctx, appID)
	if err != nil {
		return Schedule{}, db.MapError(err)
	}
	if len(existing) >= MaxSchedulesPerApp {
		return Schedule{}, herald.Errorf(herald.ECONFLICT, "an app may have at most %d recurring workflow schedules", MaxSchedulesPerApp)
	}
	id := flowrun.FlowScheduleID(secrets.HexToken(8))
	row, err := s.db.InsertFlowSchedule(ctx, dbsqlc.InsertFlowScheduleParams{
		AppID: appID, ScheduleID: id, FlowIdentifier: in.workflow, Cron: in.cron, Timezone: in.timezone, SendBody: in.sendBody,
	})
	if err != nil {
		return Schedule{}, db.MapError(err)
	}
	_, err = s.temporal.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID:   id,
		Spec: client.ScheduleSpec{CronExpressions: []string{in.cron}, TimeZoneName: in.timezone},
		Action: &client.ScheduleWorkflowAction{
			ID: id, Workflow: flowrun.FlowScheduleWorkflowName, TaskQueue: s.taskQueue,
			Args:                  []any{flowrun.FlowScheduleInput{AppID: appID, ScheduleID: row.ID}},
			TypedSearchAttributes: visibility.Recurring(appID, in.workflow),
			StaticSummary:         fmt.Sprintf("Recurring trigger of workflow %s (%s, %s)", in.workflow, in.cron, in.timezone),
		},
	})
	if err != nil {
		if _, derr := s.db.DeleteFlowSchedule(context.WithoutCancel(ctx), dbsqlc.DeleteFlowScheduleParams{ID: row.ID, AppID: appID}); derr != nil {
			s.log.Error("recurring schedule row left without its schedule", "id", row.ID, "error", derr)
		}
		return Schedule{}, fmt.Errorf("create Temporal schedule %s: %w", id, err)
	}
	return scheduleOf(row), nil
}

// List returns the app's flow schedules.
func (s *ScheduleService) List(ctx context.Context, appID int64) ([]Schedule, error) {
	rows, err := s.db.ListFlowSchedules(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Schedule, len(rows))
	for i, r := range rows {
		out[i] = scheduleOf(r)
	}
	return out, nil
}

// Delete removes a trigger and its Temporal Schedule; runs already started go on.
func (s *ScheduleService) Delete(ctx context.Context, appID, id int64) error {
	row, err := s.db.GetFlowSchedule(ctx, dbsqlc.GetFlowScheduleParams{ID: id, AppID: appID})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return herald.NotFound("recurring schedule")
		}
		return err
	}
	err = s.temporal.ScheduleClient().GetHandle(ctx, row.ScheduleID).Delete(ctx)
	var nf *serviceerror.NotFound
	if err != nil && !errors.As(err, &nf) {
		return fmt.Errorf("delete Temporal schedule: %w", err)
	}
	if _, err := s.db.DeleteFlowSchedule(ctx, dbsqlc.DeleteFlowScheduleParams{ID: id, AppID: appID}); err != nil {
		return db.MapError(err)
	}
	return nil
}

// SetPaused pauses a trigger (its ticks send nothing) or resumes it; the Temporal Schedule
// changes first, so the stored state never claims what Temporal does not do.
func (s *ScheduleService) SetPaused(ctx context.Context, appID, id int64, paused bool) (Schedule, error) {
	row, err := s.db.GetFlowSchedule(ctx, dbsqlc.GetFlowScheduleParams{ID: id, AppID: appID})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return Schedule{}, herald.NotFound("recurring schedule")
		}
		return Schedule{}, err
	}
	h := s.temporal.ScheduleClient().GetHandle(ctx, row.ScheduleID)
	if paused {
		err = h.Pause(ctx, client.SchedulePauseOptions{Note: "paused from the console"})
	} else {
		err = h.Unpause(ctx, client.ScheduleUnpauseOptions{Note: "resumed from the console"})
	}
	if err != nil {
		return Schedule{}, fmt.Errorf("pause Temporal schedule %s: %w", row.ScheduleID, err)
	}
	row, err = s.db.SetFlowSchedulePaused(ctx, dbsqlc.SetFlowSchedulePausedParams{ID: id, AppID: appID, Paused: paused})
	if err != nil {
		return Schedule{}, db.MapError(err)
	}
	return scheduleOf(row), nil
}

func scheduleOf(r dbsqlc.FlowSchedule) Schedule {
	f := js.Fields(r.SendBody)
	out := Schedule{ID: r.ID, Workflow: r.FlowIdentifier, Cron: r.Cron, Timezone: r.Timezone,
		SendTo: f["sendTo"], ScheduleID: r.ScheduleID, Paused: r.Paused, CreatedAt: r.CreatedAt}
	if js.Present(f["data"]) {
		out.Data = f["data"]
	}
	return out
}
