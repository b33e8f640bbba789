package analytics

import (
	"context"
	"encoding/base64"
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
)

// LogEvents are the values of the log search's event filter: a message's status, which is
// its latest event (provider callbacks move it on: sent → delivered → opened → clicked, or
// bounced).
var LogEvents = []string{"queued", "held", "sent", "delivered", "failed", "skipped", "bounced", "opened", "clicked"}

// Limits of the log search.
const (
	MaxLogUsers          = 100
	maxProviderParameter = 100
)

// LogQuery selects a page of an app's message log.
type LogQuery struct {
	Range Range
	// Page (1-based) and Limit place the page; Cursor (a previous page's nextCursor)
	// continues after that page instead, which stays fast however deep the list goes.
	Page, Limit int
	Cursor      string
	// Filters; empty ones select everything.
	Provider, Event, Channel string
	Users                    []string
}

// Check records the query's violated rules (the range is checked by ParseRange).
func (q LogQuery) Check(p *herald.Problems) {
	if q.Event != "" && !slices.Contains(LogEvents, q.Event) {
		p.Addf("event must be one of the following values: %s", strings.Join(LogEvents, ", "))
	}
	if q.Channel != "" && !herald.IsChannel(q.Channel) {
		p.Addf("channel must be one of the following values: %s", strings.Join(herald.Channels, ", "))
	}
	if len(q.Provider) > maxProviderParameter {
		p.Addf("providerIdentifier must be at most %d characters", maxProviderParameter)
	}
	if len(q.Users) > MaxLogUsers {
		p.Addf("userIdentifier must not have more than %d values", MaxLogUsers)
	}
	for _, u := range q.Users {
		if u == "" || len(u) > herald.MaxIdentifierLength {
			p.Addf("each userIdentifier must be 1 to %d characters", herald.MaxIdentifierLength)
			break
		}
	}
	if q.Cursor != "" {
		if _, _, ok := decodeCursor(q.Cursor); !ok {
			p.Addf("cursor is not a nextCursor of this list")
		}
		if q.Page > 1 {
			p.Addf("page cannot be combined with cursor")
		}
	}
}

// LogEntry is one message of the log: a recipient × channel (× workflow step) of a send,
// with the request and the Temporal workflow that carried it.
type LogEntry struct {
	ID         int64     `json:"id"`
	RequestID  uuid.UUID `json:"requestId"`
	WorkflowID string    `json:"workflowId"`
	// TemporalURL opens the run in the Temporal Web UI (absent when HERALD_TEMPORAL_UI_URL
	// is unset).
	TemporalURL        string     `json:"temporalUrl,omitempty"`
	UserIdentifier     string     `json:"userIdentifier"`
	Channel            string     `json:"channel"`
	StepKey            string     `json:"stepKey"`
	Status             string     `json:"status"`
	Reason             *string    `json:"reason"`
	Error              *string    `json:"error"`
	TemplateIdentifier *string    `json:"templateIdentifier"`
	ProviderIdentifier *string    `json:"providerIdentifier"`
	ProviderInstanceID *int64     `json:"providerInstanceId"`
	ProviderMessageID  *string    `json:"providerMessageId"`
	ProviderResponse   *string    `json:"providerResponse"`
	IdempotencyKey     string     `json:"idempotencyKey"`
	Attempts           int32      `json:"attempts"`
	CreatedAt          time.Time  `json:"createdAt"`
	UpdatedAt          time.Time  `json:"updatedAt"`
	SentAt             *time.Time `json:"sentAt"`
	DeliveredAt        *time.Time `json:"deliveredAt"`
	FailedAt           *time.Time `json:"failedAt"`
	BouncedAt          *time.Time `json:"bouncedAt"`
	OpenedAt           *time.Time `json:"openedAt"`
	ClickedAt          *time.Time `json:"clickedAt"`
}

// LogPage is a page of the message log. A total is not counted (the log grows to millions
// of rows); hasMore tells whether another page follows.
type LogPage struct {
	Pagination LogPagination `json:"pagination"`
	// NextCursor continues after this page (null on the last one).
	NextCursor *string    `json:"nextCursor"`
	Data       []LogEntry `json:"data"`
}

// LogPagination places a page of the log.
type LogPagination struct {
	Page    int  `json:"page"`
	Limit   int  `json:"limit"`
	HasMore bool `json:"hasMore"`
}

// Logs returns a page of the app's message log, newest first (by creation, then id).
//
// The query is built from the filters given: each filter present becomes a predicate, so
// the planner picks the index made for it (migration 00073) and reads one index range in
// order. One static query with optional parameters would be planned once for all
// combinations and could use none of them.
func (s *Service) Logs(ctx context.Context, appID int64, q LogQuery) (LogPage, error) {
	out := LogPage{Pagination: LogPagination{Page: q.Page, Limit: q.Limit}, Data: []LogEntry{}}
	var p herald.Problems
	if q.Check(&p); p.Err() != nil {
		return out, p.Err()
	}
	args := []any{appID, q.Range.From, q.Range.To}
	where := "app_id = $1 AND created_at >= $2 AND created_at <= $3"
	add := func(pred string, v any) {
		args = append(args, v)
		where += " AND " + strings.ReplaceAll(pred, "?", "$"+strconv.Itoa(len(args)))
	}
	if q.Provider != "" {
		add("provider = ?", q.Provider)
	}
	if q.Channel != "" {
		add("channel = ?", q.Channel)
	}
	if q.Event != "" {
		add("status = ?", q.Event)
	}
	switch len(q.Users) {
	case 0:
	case 1:
		add("user_identifier = ?", q.Users[0])
	default:
		add("user_identifier = ANY(?)", q.Users)
	}
	offset := (q.Page - 1) * q.Limit
	if q.Cursor != "" {
		at, id, _ := decodeCursor(q.Cursor)
		args = append(args, at)
		add(fmt.Sprintf("(created_at, id) < ($%d, ?)", len(args)), id)
		offset = 0
	}
	sql := fmt.Sprintf("SELECT id FROM message_logs WHERE %s ORDER BY created_at DESC, id DESC LIMIT %d OFFSET %d", where, q.Limit+1, offset)
	rows, err := s.db.Pool.Query(ctx, sql, args...)
	if err != nil {
		return out, db.MapError(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return out, db.MapError(err)
	}
	if len(ids) > q.Limit {
		ids = ids[:q.Limit]
		out.Pagination.HasMore = true
	}
	logs, err := s.db.MessageLogsByIDs(ctx, dbsqlc.MessageLogsByIDsParams{AppID: appID, Ids: ids})
	if err != nil {
		return out, db.MapError(err)
	}
	byID := make(map[int64]dbsqlc.MessageLog, len(logs))
	for _, l := range logs {
		byID[l.ID] = l
	}
	for _, id := range ids {
		if l, ok := byID[id]; ok {
			out.Data = append(out.Data, logEntry(l))
		}
	}
	if out.Pagination.HasMore && len(out.Data) > 0 {
		last := out.Data[len(out.Data)-1]
		c := encodeCursor(last.CreatedAt, last.ID)
		out.NextCursor = &c
	}
	return out, nil
}

func logEntry(l dbsqlc.MessageLog) LogEntry {
	return LogEntry{
		ID: l.ID, RequestID: l.RequestID, WorkflowID: l.WorkflowID, UserIdentifier: l.UserIdentifier, Channel: l.Channel,
		StepKey: l.StepKey, Status: l.Status, Reason: l.Reason, Error: l.Error, TemplateIdentifier: l.TemplateIdentifier,
		ProviderIdentifier: l.Provider, ProviderInstanceID: l.InstanceID, ProviderMessageID: l.ProviderMessageID,
		ProviderResponse: l.ProviderResponse, IdempotencyKey: l.IdempotencyKey, Attempts: l.Attempts,
		CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC(), SentAt: utc(l.SentAt), DeliveredAt: utc(l.DeliveredAt),
		FailedAt: utc(l.FailedAt), BouncedAt: utc(l.BouncedAt), OpenedAt: utc(l.OpenedAt), ClickedAt: utc(l.ClickedAt),
	}
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC()
	return &v
}

// A cursor is the position (created_at in microseconds, id) of a page's last row.
func encodeCursor(at time.Time, id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(at.UnixMicro(), 10) + "." + strconv.FormatInt(id, 10)))
}

func decodeCursor(s string) (time.Time, int64, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return time.Time{}, 0, false
	}
	micros, idText, ok := strings.Cut(string(raw), ".")
	if !ok {
		return time.Time{}, 0, false
	}
	us, err1 := strconv.ParseInt(micros, 10, 64)
	id, err2 := strconv.ParseInt(idText, 10, 64)
	if err1 != nil || err2 != nil || id <= 0 {
		return time.Time{}, 0, false
	}
	return time.UnixMicro(us).UTC(), id, true
}
