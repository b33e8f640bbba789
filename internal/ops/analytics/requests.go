package analytics

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/flow/rundetail"
)

// RequestStatuses are the values of the activity feed's status filter: where a send request
// stands (accepted → started → completed | failed; scheduled and cancelled for sendAt).
var RequestStatuses = []string{"accepted", "scheduled", "started", "completed", "failed", "cancelled"}

// Limits of the activity feed.
const (
	maxWorkflowParameter = 100
	// A request's detail lists at most this many messages and runs (a topic send can reach
	// millions); Truncated says when there are more (the message log has them all).
	maxRequestMessages = 500
	maxRequestRuns     = 1000
	// A list row names at most this many of the request's recipients.
	maxListedRecipients = 10
)

// RequestQuery selects a page of an app's send requests.
type RequestQuery struct {
	Limit int
	// Cursor (a previous page's nextCursor) continues after that page.
	Cursor string
	// Filters; empty ones select everything.
	User, Workflow, Status string
}

// Check records the query's violated rules.
func (q RequestQuery) Check(p *herald.Problems) {
	if q.User != "" && len(q.User) > herald.MaxIdentifierLength {
		p.Addf("user must be at most %d characters", herald.MaxIdentifierLength)
	}
	if len(q.Workflow) > maxWorkflowParameter {
		p.Addf("workflow must be at most %d characters", maxWorkflowParameter)
	}
	if q.Status != "" && !slices.Contains(RequestStatuses, q.Status) {
		p.Addf("status must be one of the following values: %s", strings.Join(RequestStatuses, ", "))
	}
	if q.Cursor != "" {
		if _, _, ok := decodeRequestCursor(q.Cursor); !ok {
			p.Addf("cursor is not a nextCursor of this list")
		}
	}
}

// Request is one send request of the activity feed, as accepted and as it stands.
type Request struct {
	ID uuid.UUID `json:"id"`
	// Status: accepted, scheduled, started, completed, failed or cancelled.
	Status string `json:"status"`
	// Workflow is the user-defined workflow the send names (nil for a plain send).
	Workflow           *string `json:"workflow"`
	TemplateIdentifier *string `json:"templateIdentifier"`
	Category           *string `json:"category"`
	Title              *string `json:"title"`
	// Recipients are the first users the request names; Topics the topics it sends to.
	Recipients     []string `json:"recipients"`
	Topics         []string `json:"topics"`
	RecipientCount int32    `json:"recipientCount"`
	DeliveredCount int32    `json:"deliveredCount"`
	Critical       bool     `json:"critical"`
	Error          *string  `json:"error"`
	// WorkflowID is the Temporal workflow that carries the request (nil until the relay
	// starts it); TemporalURL opens it in the Temporal Web UI when one is configured.
	WorkflowID  *string    `json:"workflowId"`
	TemporalURL string     `json:"temporalUrl,omitempty"`
	SendAt      *time.Time `json:"sendAt"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
	CompletedAt *time.Time `json:"completedAt"`
}

// RequestPage is a page of the activity feed; hasMore tells whether another page follows.
type RequestPage struct {
	Limit   int  `json:"limit"`
	HasMore bool `json:"hasMore"`
	// NextCursor continues after this page (null on the last one).
	NextCursor *string   `json:"nextCursor"`
	Data       []Request `json:"data"`
}

// RequestRun is one recipient's run of the request's workflow with its steps.
type RequestRun struct {
	Workflow       string `json:"workflow"`
	UserIdentifier string `json:"userIdentifier"`
	WorkflowID     string `json:"workflowId"`
	TemporalURL    string `json:"temporalUrl,omitempty"`
	// Status: running, completed, digested, throttled, failed or cancelled.
	Status     string        `json:"status"`
	StartedAt  time.Time     `json:"startedAt"`
	FinishedAt *time.Time    `json:"finishedAt"`
	Steps      []RequestStep `json:"steps"`
}

// RequestStep is one recorded step outcome of a run, with its input, evaluation and
// message as in the workflow run timeline (flow.Step).
type RequestStep struct {
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

// RequestDetail is what one send request did: its messages (recipient × channel × step, as
// the message log has them) and, for a workflow send, its runs with their steps.
type RequestDetail struct {
	Request
	Messages []LogEntry   `json:"messages"`
	Runs     []RequestRun `json:"runs"`
	// Truncated is true when the request has more messages or runs than listed.
	Truncated bool `json:"truncated"`
}

// Requests returns a page of the app's send requests, newest first (by creation, then id).
// As in Logs, the query is built from the filters given so that each uses the index made
// for it (migration 00216) and a page is one index range read.
func (s *Service) Requests(ctx context.Context, appID int64, q RequestQuery) (RequestPage, error) {
	out := RequestPage{Limit: q.Limit, Data: []Request{}}
	var p herald.Problems
	if q.Check(&p); p.Err() != nil {
		return out, p.Err()
	}
	args := []any{appID}
	where := "app_id = $1"
	add := func(pred string, v any) {
		args = append(args, v)
		where += " AND " + strings.ReplaceAll(pred, "?", "$"+strconv.Itoa(len(args)))
	}
	if q.Status != "" {
		add("status = ?", q.Status)
	}
	if q.Workflow != "" {
		add("payload #>> '{notification,workflow,identifier}' = ?", q.Workflow)
	}
	if q.User != "" {
		// Named among the recipients (notification_requests_recipients), or reached through
		// a topic: the message log names every recipient (message_logs_app_user).
		named, _ := json.Marshal([]map[string]string{{"identifier": q.User}})
		args = append(args, string(named), q.User)
		where += fmt.Sprintf(" AND id IN (SELECT id FROM notification_requests WHERE payload -> 'recipients' @> $%d::jsonb"+
			" UNION SELECT request_id FROM message_logs WHERE app_id = $1 AND user_identifier = $%d)", len(args)-1, len(args))
	}
	if q.Cursor != "" {
		at, id, _ := decodeRequestCursor(q.Cursor)
		args = append(args, at)
		add(fmt.Sprintf("(created_at, id) < ($%d, ?)", len(args)), id)
	}
	sql := fmt.Sprintf("SELECT id FROM notification_requests WHERE %s ORDER BY created_at DESC, id DESC LIMIT %d", where, q.Limit+1)
	rows, err := s.db.Pool.Query(ctx, sql, args...)
	if err != nil {
		return out, db.MapError(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return out, db.MapError(err)
	}
	if len(ids) > q.Limit {
		ids = ids[:q.Limit]
		out.HasMore = true
	}
	list, err := s.db.RequestsByIDs(ctx, dbsqlc.RequestsByIDsParams{AppID: appID, Ids: ids})
	if err != nil {
		return out, db.MapError(err)
	}
	byID := make(map[uuid.UUID]dbsqlc.NotificationRequest, len(list))
	for _, r := range list {
		byID[r.ID] = r
	}
	for _, id := range ids {
		if r, ok := byID[id]; ok {
			out.Data = append(out.Data, request(r))
		}
	}
	if out.HasMore && len(out.Data) > 0 {
		last := out.Data[len(out.Data)-1]
		c := encodeRequestCursor(last.CreatedAt, last.ID)
		out.NextCursor = &c
	}
	return out, nil
}

// RequestDetail returns one send request of the app with its messages and workflow runs
// (not found for another app's request).
func (s *Service) RequestDetail(ctx context.Context, appID int64, requestID string) (RequestDetail, error) {
	id, err := uuid.Parse(requestID)
	if err != nil {
		return RequestDetail{}, herald.Invalid("requestId must be a UUID")
	}
	row, err := s.db.GetRequestOfApp(ctx, dbsqlc.GetRequestOfAppParams{AppID: appID, ID: id})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return RequestDetail{}, herald.NotFound("notification request")
		}
		return RequestDetail{}, err
	}
	out := RequestDetail{Request: request(row), Messages: []LogEntry{}, Runs: []RequestRun{}}
	logs, err := s.db.MessageLogsOfRequestPage(ctx, dbsqlc.MessageLogsOfRequestPageParams{AppID: appID, RequestID: id, MaxRows: maxRequestMessages + 1})
	if err != nil {
		return out, db.MapError(err)
	}
	if len(logs) > maxRequestMessages {
		logs, out.Truncated = logs[:maxRequestMessages], true
	}
	for _, l := range logs {
		out.Messages = append(out.Messages, logEntry(l))
	}
	if out.Workflow == nil {
		return out, nil
	}
	runs, err := s.db.FlowRunsOfRequestAll(ctx, dbsqlc.FlowRunsOfRequestAllParams{AppID: appID, RequestID: id})
	if err != nil {
		return out, db.MapError(err)
	}
	if len(runs) >= maxRequestRuns {
		out.Truncated = true
	}
	steps, err := s.db.FlowLogsOfRequestAll(ctx, dbsqlc.FlowLogsOfRequestAllParams{AppID: appID, RequestID: id.String()})
	if err != nil {
		return out, db.MapError(err)
	}
	contents, err := s.db.MessageContentsOfRequest(ctx, dbsqlc.MessageContentsOfRequestParams{AppID: appID, RequestID: id, MaxRows: rundetail.MaxContents})
	if err != nil {
		return out, db.MapError(err)
	}
	messages := rundetail.Index(loggedMessages(out.Messages), contentsByLog(contents))
	byRun := map[string]int{}
	for _, r := range runs {
		byRun[r.FlowIdentifier+"\x00"+r.UserIdentifier] = len(out.Runs)
		out.Runs = append(out.Runs, RequestRun{Workflow: r.FlowIdentifier, UserIdentifier: r.UserIdentifier, WorkflowID: r.WorkflowID,
			Status: r.Status, StartedAt: r.CreatedAt.UTC(), FinishedAt: utc(r.FinishedAt), Steps: []RequestStep{}})
	}
	// Steps recorded by a digest's collector (another workflow id) belong to their
	// recipient's run, as in the workflow run timeline.
	for _, l := range steps {
		if i, ok := byRun[l.FlowIdentifier+"\x00"+l.UserIdentifier]; ok {
			out.Runs[i].Steps = append(out.Runs[i].Steps, RequestStep{StepID: l.StepID, StepType: l.StepType, Outcome: l.Outcome,
				Detail: l.Detail, Version: l.FlowVersion, CreatedAt: l.CreatedAt.UTC(),
				Input: rundetail.Raw(l.Input), Evaluation: rundetail.Raw(l.Evaluation), Message: messages.For(l.UserIdentifier, l.StepType, l.StepID)})
		}
	}
	return out, nil
}

// payloadSummary is what a list row shows of the stored send body.
type payloadSummary struct {
	Notification struct {
		Title              string `json:"title"`
		Category           string `json:"category"`
		TemplateIdentifier string `json:"templateIdentifier"`
		Workflow           *struct {
			Identifier string `json:"identifier"`
		} `json:"workflow"`
	} `json:"notification"`
	Recipients []struct {
		Identifier string `json:"identifier"`
	} `json:"recipients"`
	Topics []string `json:"topics"`
}

func request(r dbsqlc.NotificationRequest) Request {
	var p payloadSummary
	_ = json.Unmarshal(r.Payload, &p) // the body was validated at accept; a row that does not parse shows no summary
	out := Request{ID: r.ID, Status: r.Status, RecipientCount: r.RecipientCount, DeliveredCount: r.DeliveredCount,
		Critical: r.Critical, Error: r.Error, WorkflowID: r.WorkflowID, SendAt: utc(r.SendAt), CreatedAt: r.CreatedAt.UTC(),
		UpdatedAt: r.UpdatedAt.UTC(), CompletedAt: utc(r.CompletedAt), Recipients: []string{}, Topics: []string{}}
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	out.Title, out.Category, out.TemplateIdentifier = opt(p.Notification.Title), opt(p.Notification.Category), opt(p.Notification.TemplateIdentifier)
	if p.Notification.Workflow != nil {
		out.Workflow = opt(p.Notification.Workflow.Identifier)
	}
	for _, u := range p.Recipients {
		if len(out.Recipients) == maxListedRecipients {
			break
		}
		out.Recipients = append(out.Recipients, u.Identifier)
	}
	if p.Topics != nil {
		out.Topics = p.Topics
	}
	return out
}

// A request cursor is the position (created_at in microseconds, id) of a page's last row.
func encodeRequestCursor(at time.Time, id uuid.UUID) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(at.UnixMicro(), 10) + "." + id.String()))
}

func decodeRequestCursor(s string) (time.Time, uuid.UUID, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return time.Time{}, uuid.UUID{}, false
	}
	micros, idText, ok := strings.Cut(string(raw), ".")
	if !ok {
		return time.Time{}, uuid.UUID{}, false
	}
	us, err1 := strconv.ParseInt(micros, 10, 64)
	id, err2 := uuid.Parse(idText)
	if err1 != nil || err2 != nil {
		return time.Time{}, uuid.UUID{}, false
	}
	return time.UnixMicro(us).UTC(), id, true
}

// loggedMessages maps the request's message log entries to what rundetail indexes.
func loggedMessages(logs []LogEntry) []rundetail.Logged {
	out := make([]rundetail.Logged, len(logs))
	for i, l := range logs {
		out[i] = rundetail.Logged{UserIdentifier: l.UserIdentifier, StepKey: l.StepKey, Message: rundetail.Message{
			ID: l.ID, Channel: l.Channel, Status: l.Status, Reason: l.Reason, Error: l.Error,
			ProviderIdentifier: l.ProviderIdentifier, ProviderMessageID: l.ProviderMessageID, ProviderResponse: l.ProviderResponse,
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
