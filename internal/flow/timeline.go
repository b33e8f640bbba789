package flow

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/flow/rundetail"
)

// Version is one published version of a workflow, as the version history shows it.
type Version struct {
	Version    int32           `json:"version"`
	Definition json.RawMessage `json:"definition"`
	// PayloadSchema is the version's payload schema (null: none), the one its sends' data
	// is checked against.
	PayloadSchema json.RawMessage `json:"payloadSchema"`
	PublishedAt   time.Time       `json:"publishedAt"`
}

// Versions returns the published versions of a workflow of the app, newest first (empty
// before the first publish).
func (s *Service) Versions(ctx context.Context, appID int64, identifier string) ([]Version, error) {
	if _, err := s.Get(ctx, appID, identifier); err != nil {
		return nil, err
	}
	rows, err := s.db.ListFlowVersions(ctx, dbsqlc.ListFlowVersionsParams{AppID: appID, Identifier: identifier})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Version, len(rows))
	for i, r := range rows {
		out[i] = Version{Version: r.Version, Definition: r.Definition, PayloadSchema: r.PayloadSchema, PublishedAt: r.CreatedAt}
	}
	return out, nil
}

// Step is one recorded step outcome of a run, with what it saw and decided: Input (the
// run's data and the recipient), Evaluation (a branch's comparisons, what released a
// waitForRead) and, for a channel step, Message (the content it rendered and the
// provider's answer). Each is null when not recorded (runs from before they were).
type Step struct {
	StepID     string             `json:"stepId"`
	StepType   string             `json:"stepType"`
	Outcome    string             `json:"outcome"`
	Detail     string             `json:"detail"`
	Version    int32              `json:"version"`
	CreatedAt  time.Time          `json:"createdAt"`
	Input      json.RawMessage    `json:"input"`
	Evaluation json.RawMessage    `json:"evaluation"`
	Message    *rundetail.Message `json:"message"`
}

// maxTimelineMessages bounds the message log rows a timeline reads.
const maxTimelineMessages = 1000

// Run is one recipient's run of a workflow with the steps it recorded so far.
type Run struct {
	UserIdentifier string `json:"userIdentifier"`
	WorkflowID     string `json:"workflowId"`
	// Status: running, completed, digested, throttled, failed or cancelled.
	Status     string     `json:"status"`
	StartedAt  time.Time  `json:"startedAt"`
	FinishedAt *time.Time `json:"finishedAt"`
	Steps      []Step     `json:"steps"`
}

// Timeline is what one send request did in a workflow: its runs, one per recipient (none
// until the send reaches its recipients).
type Timeline struct {
	RequestID string `json:"requestId"`
	Workflow  string `json:"workflow"`
	Runs      []Run  `json:"runs"`
}

// Timeline returns the runs of a workflow that a send request of the app started, each with
// its steps in the order they were recorded. Steps recorded by a digest's collector (which
// continues the run under another id) are listed under the run of their recipient.
func (s *Service) Timeline(ctx context.Context, appID int64, identifier, requestID string) (Timeline, error) {
	id, err := uuid.Parse(requestID)
	if err != nil {
		return Timeline{}, herald.Invalid("requestId must be a UUID")
	}
	if _, err := s.Get(ctx, appID, identifier); err != nil {
		return Timeline{}, err
	}
	known, err := s.db.RequestOfApp(ctx, dbsqlc.RequestOfAppParams{AppID: appID, RequestID: id})
	if err != nil {
		return Timeline{}, db.MapError(err)
	}
	if !known {
		return Timeline{}, herald.NotFound("notification request")
	}
	runs, err := s.db.FlowRunsOfRequest(ctx, dbsqlc.FlowRunsOfRequestParams{AppID: appID, RequestID: id, FlowIdentifier: identifier})
	if err != nil {
		return Timeline{}, db.MapError(err)
	}
	logs, err := s.db.FlowLogsOfRequest(ctx, dbsqlc.FlowLogsOfRequestParams{AppID: appID, RequestID: id.String(), FlowIdentifier: identifier})
	if err != nil {
		return Timeline{}, db.MapError(err)
	}
	msgs, err := s.db.MessageLogsOfRequestPage(ctx, dbsqlc.MessageLogsOfRequestPageParams{AppID: appID, RequestID: id, MaxRows: maxTimelineMessages})
	if err != nil {
		return Timeline{}, db.MapError(err)
	}
	contents, err := s.db.MessageContentsOfRequest(ctx, dbsqlc.MessageContentsOfRequestParams{AppID: appID, RequestID: id, MaxRows: rundetail.MaxContents})
	if err != nil {
		return Timeline{}, db.MapError(err)
	}
	messages := rundetail.Index(loggedMessages(msgs), contentsByLog(contents))
	t := Timeline{RequestID: id.String(), Workflow: identifier, Runs: make([]Run, 0, len(runs))}
	byUser := map[string]int{}
	for _, r := range runs {
		byUser[r.UserIdentifier] = len(t.Runs)
		t.Runs = append(t.Runs, Run{UserIdentifier: r.UserIdentifier, WorkflowID: r.WorkflowID, Status: r.Status,
			StartedAt: r.CreatedAt, FinishedAt: r.FinishedAt, Steps: []Step{}})
	}
	for _, l := range logs {
		i, ok := byUser[l.UserIdentifier]
		if !ok {
			continue
		}
		t.Runs[i].Steps = append(t.Runs[i].Steps, Step{StepID: l.StepID, StepType: l.StepType, Outcome: l.Outcome,
			Detail: l.Detail, Version: l.FlowVersion, CreatedAt: l.CreatedAt,
			Input: rundetail.Raw(l.Input), Evaluation: rundetail.Raw(l.Evaluation), Message: messages.For(l.UserIdentifier, l.StepType, l.StepID)})
	}
	return t, nil
}

// loggedMessages maps message log rows to what rundetail indexes.
func loggedMessages(rows []dbsqlc.MessageLog) []rundetail.Logged {
	out := make([]rundetail.Logged, len(rows))
	for i, l := range rows {
		out[i] = rundetail.Logged{UserIdentifier: l.UserIdentifier, StepKey: l.StepKey, Message: rundetail.Message{
			ID: l.ID, Channel: l.Channel, Status: l.Status, Reason: l.Reason, Error: l.Error,
			ProviderIdentifier: l.Provider, ProviderMessageID: l.ProviderMessageID, ProviderResponse: l.ProviderResponse,
			Attempts: l.Attempts, SentAt: l.SentAt, DeliveredAt: l.DeliveredAt, FailedAt: l.FailedAt,
		}}
	}
	return out
}

// contentsByLog maps the contents of a request's steps to their message log ids.
func contentsByLog(rows []dbsqlc.MessageContentsOfRequestRow) map[int64]json.RawMessage {
	out := make(map[int64]json.RawMessage, len(rows))
	for _, c := range rows {
		out[c.MessageLogID] = c.Content
	}
	return out
}
