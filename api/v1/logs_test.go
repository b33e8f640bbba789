package v1_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// exec runs SQL on the stack's database (seeding rows the delivery pipeline would write).
func (e *env) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// users creates users of an app and returns their ids by identifier.
func (e *env) users(t *testing.T, appID int64, identifiers ...string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, u := range identifiers {
		var id int64
		if err := e.Stack.DB.Pool.QueryRow(context.Background(), "INSERT INTO users (app_id, identifier) VALUES ($1, $2) RETURNING id", appID, u).Scan(&id); err != nil {
			t.Fatal(err)
		}
		out[u] = id
	}
	return out
}

// logRow is a message log row to seed.
type logRow struct {
	req                               uuid.UUID
	user, channel, status             string
	template, provider, reason, error string
	at                                time.Time
}

// seedLogs inserts message log rows (with their request, carried by workflow send/<id>)
// and returns their ids in order.
func (e *env) seedLogs(t *testing.T, appID int64, users map[string]int64, rows ...logRow) []int64 {
	t.Helper()
	var ids []int64
	for _, r := range rows {
		e.exec(t, `INSERT INTO notification_requests (id, app_id, payload, status, workflow_id) VALUES ($1, $2, '{}', 'completed', $3)
			ON CONFLICT DO NOTHING`, r.req, appID, "send/"+r.req.String())
		var id int64
		err := e.Stack.DB.Pool.QueryRow(context.Background(), `
			INSERT INTO message_logs (app_id, request_id, workflow_id, user_id, user_identifier, channel, status, template_identifier,
			                          provider, reason, error, idempotency_key, created_at, sent_at, delivered_at, failed_at)
			VALUES ($1, $2, $12, $3, $4, $5, $6, NULLIF($7, ''), NULLIF($8, ''), NULLIF($9, ''), NULLIF($10, ''), $13, $11,
			        CASE WHEN $6 = 'sent' THEN $11::timestamptz END, CASE WHEN $6 = 'delivered' THEN $11::timestamptz END,
			        CASE WHEN $6 = 'failed' THEN $11::timestamptz END)
			RETURNING id`,
			appID, r.req, users[r.user], r.user, r.channel, r.status, r.template, r.provider, r.reason, r.error, r.at,
			"send/"+r.req.String(), r.req.String()+":"+r.user+":"+r.channel).Scan(&id)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

type logPage struct {
	Pagination struct {
		Page, Limit int
		HasMore     bool
	}
	NextCursor *string
	Data       []struct {
		ID                                                     int64
		RequestID, WorkflowID, UserIdentifier, Channel, Status string
		Error, Reason, ProviderIdentifier, TemplateIdentifier  *string
		IdempotencyKey                                         string
		CreatedAt                                              time.Time
		SentAt, DeliveredAt                                    *time.Time
	}
}

func TestMessageLogSearch(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "logs@example.com")
	b := e.tenant(t, "logs2@example.com")
	users := e.users(t, a.appID, "ann", "bob", "cy")
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	r1, r2, r3 := uuid.New(), uuid.New(), uuid.New()
	ago := func(n int) time.Time { return base.Add(-time.Duration(n) * time.Minute) }
	ids := e.seedLogs(t, a.appID, users,
		logRow{req: r1, user: "ann", channel: "inApp", status: "delivered", template: "welcome", at: ago(1)},
		logRow{req: r1, user: "bob", channel: "inApp", status: "delivered", template: "welcome", at: ago(2)},
		logRow{req: r1, user: "ann", channel: "email", status: "sent", template: "welcome", provider: "smtp", at: ago(3)},
		logRow{req: r1, user: "bob", channel: "email", status: "failed", template: "welcome", provider: "smtp", error: "550 no such mailbox", at: ago(4)},
		logRow{req: r1, user: "cy", channel: "email", status: "skipped", template: "welcome", reason: "no email address", at: ago(5)},
		logRow{req: r2, user: "ann", channel: "webhook", status: "sent", provider: "webhook", at: ago(6)},
		// Older than the default 30 days.
		logRow{req: r3, user: "ann", channel: "inApp", status: "delivered", at: base.AddDate(0, 0, -40)},
	)
	e.seedLogs(t, b.appID, e.users(t, b.appID, "ann"), logRow{req: uuid.New(), user: "ann", channel: "inApp", status: "delivered", at: ago(1)})

	get := func(query string) logPage {
		t.Helper()
		var p logPage
		must(t, e.Do("GET", a.appPath("/logs"+query), nil, bearer(a.tok)), 200, "logs"+query).JSON(t, &p)
		return p
	}
	want := func(query string, rows ...int) logPage {
		t.Helper()
		p := get(query)
		var got, exp []int64
		for _, d := range p.Data {
			got = append(got, d.ID)
		}
		for _, r := range rows {
			exp = append(exp, ids[r-1])
		}
		if !slices.Equal(got, exp) {
			t.Errorf("%s: rows %v, want %v", query, got, exp)
		}
		return p
	}

	// Newest first within the last 30 days, each row with its request and workflow.
	p := want("", 1, 2, 3, 4, 5, 6)
	if d := p.Data[0]; d.RequestID != r1.String() || d.WorkflowID != "send/"+r1.String() || d.UserIdentifier != "ann" || d.Channel != "inApp" ||
		d.Status != "delivered" || d.DeliveredAt == nil || d.TemplateIdentifier == nil || *d.TemplateIdentifier != "welcome" ||
		d.IdempotencyKey != r1.String()+":ann:inApp" || !d.CreatedAt.Equal(ago(1)) {
		t.Errorf("first row %+v", d)
	}
	if d := p.Data[3]; d.Error == nil || *d.Error != "550 no such mailbox" || d.ProviderIdentifier == nil || *d.ProviderIdentifier != "smtp" {
		t.Errorf("failed row %+v", d)
	}
	if p.Pagination.HasMore || p.NextCursor != nil || p.Pagination.Page != 1 || p.Pagination.Limit != 20 {
		t.Errorf("pagination %+v, next %v", p.Pagination, p.NextCursor)
	}

	// Filters, alone and together.
	want("?channel=email", 3, 4, 5)
	want("?event=failed", 4)
	want("?event=skipped&channel=email", 5)
	want("?providerIdentifier=smtp", 3, 4)
	want("?userIdentifier=bob&userIdentifier[]=cy", 2, 4, 5)
	want("?userIdentifier=ann&channel=webhook", 6)
	want("?userIdentifier=nobody")
	want("?fromDate="+base.AddDate(0, 0, -45).Format("2006-01-02"), 1, 2, 3, 4, 5, 6, 7)
	want("?fromDate="+url.QueryEscape(ago(4).Format(time.RFC3339))+"&toDate="+url.QueryEscape(ago(2).Format(time.RFC3339)), 2, 3, 4)

	// Pages by number, and by cursor from the previous page.
	p = want("?limit=2", 1, 2)
	if !p.Pagination.HasMore || p.NextCursor == nil {
		t.Fatalf("page 1 %+v", p.Pagination)
	}
	want("?limit=2&page=2", 3, 4)
	p = want("?limit=2&cursor="+*p.NextCursor, 3, 4)
	p = want("?limit=2&cursor="+*p.NextCursor, 5, 6)
	if p.Pagination.HasMore || p.NextCursor != nil {
		t.Errorf("last page %+v", p.Pagination)
	}
	want("?limit=2&page=4")

	// Viewers read; other clients and anonymous callers do not.
	viewer := e.member(t, a.tok, a.client, "logviewer@example.com", "viewer")
	must(t, e.Do("GET", a.appPath("/logs"), nil, bearer(viewer)), 200, "viewer")
	wantError(t, e.Do("GET", a.appPath("/logs"), nil, bearer(b.tok)), 404, "app not found")
	if res := e.Do("GET", a.appPath("/logs"), nil, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}

	// Bad values: every rule at once, nothing else read.
	wantMessages(t, e.Do("GET", a.appPath("/logs?fromDate=yesterday&toDate=2025-13-01&limit=0&event=opening&channel=fax&cursor=%25%25"), nil, bearer(a.tok)),
		"fromDate must be a date (YYYY-MM-DD) or a date-time (RFC 3339)",
		"toDate must be a date (YYYY-MM-DD) or a date-time (RFC 3339)",
		"limit must not be less than 1",
		"event must be one of the following values: queued, held, sent, delivered, failed, skipped, bounced, opened, clicked",
		"channel must be one of the following values: inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook",
		"cursor is not a nextCursor of this list")
	wantMessages(t, e.Do("GET", a.appPath("/logs?fromDate=2025-02-01&toDate=2025-01-31"), nil, bearer(a.tok)), "toDate must not be before fromDate")
	wantMessages(t, e.Do("GET", a.appPath("/logs?fromDate=2024-01-01&toDate=2025-01-01"), nil, bearer(a.tok)), "the range from fromDate to toDate must not exceed 366 days")
	must(t, e.Do("GET", a.appPath("/logs?fromDate=2024-01-01&toDate=2024-12-31"), nil, bearer(a.tok)), 200, "366 days")
	wantMessages(t, e.Do("GET", a.appPath("/logs?limit=101&page=0"), nil, bearer(a.tok)), "page must not be less than 1", "limit must not be greater than 100")
	wantMessages(t, e.Do("GET", a.appPath("/logs?page=2&cursor="+*get("?limit=1").NextCursor), nil, bearer(a.tok)), "page cannot be combined with cursor")
	many := strings.Repeat("userIdentifier=u&", 101)
	wantMessages(t, e.Do("GET", a.appPath("/logs?"+many), nil, bearer(a.tok)), "userIdentifier must not have more than 100 values")
	wantMessages(t, e.Do("GET", a.appPath("/logs?providerIdentifier="+strings.Repeat("p", 101)), nil, bearer(a.tok)), "providerIdentifier must be at most 100 characters")
	wantMessages(t, e.Do("GET", "/v1/apps/abc/logs", nil, bearer(a.tok)), "appId must be a positive integer")
}
