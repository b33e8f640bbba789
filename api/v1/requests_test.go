package v1_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

type requestPage struct {
	Limit      int
	HasMore    bool
	NextCursor *string
	Data       []requestRow
}

type requestRow struct {
	ID, Status                     string
	Workflow, Title, WorkflowID    *string
	Recipients, Topics             []string
	RecipientCount, DeliveredCount int
	TemporalURL                    string
	CreatedAt                      time.Time
}

type requestDetail struct {
	requestRow
	Messages []struct {
		UserIdentifier, Channel, StepKey, Status, TemporalURL string
		Error                                                 *string
	}
	Runs []struct {
		Workflow, UserIdentifier, WorkflowID, Status, TemporalURL string
		Steps                                                     []struct{ StepID, StepType, Outcome, Detail string }
	}
	Truncated bool
}

// seedRequest stores a send request of the app as the notify service would, created at at.
func (e *env) seedRequest(t *testing.T, appID int64, payload, status string, at time.Time) uuid.UUID {
	t.Helper()
	id := uuid.New()
	wf := ""
	if status != "accepted" {
		wf = "send/" + id.String()
	}
	e.exec(t, `INSERT INTO notification_requests (id, app_id, payload, status, workflow_id, recipient_count, created_at)
		VALUES ($1, $2, $3, $4, NULLIF($6, ''), 1, $5)`, id, appID, payload, status, at, wf)
	return id
}

func TestActivityFeed(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "activity@example.com")
	b := e.tenant(t, "activity2@example.com")
	users := e.users(t, a.appID, "ann", "bob", "cy")
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	ago := func(n int) time.Time { return base.Add(-time.Duration(n) * time.Minute) }
	r1 := e.seedRequest(t, a.appID, `{"notification":{"title":"Hi"},"recipients":[{"identifier":"ann"},{"identifier":"bob"}]}`, "completed", ago(5))
	r2 := e.seedRequest(t, a.appID, `{"notification":{"workflow":{"identifier":"onboarding"}},"recipients":[{"identifier":"bob"}]}`, "started", ago(4))
	r3 := e.seedRequest(t, a.appID, `{"notification":{"title":"News"},"topics":["news"]}`, "failed", ago(3))
	r4 := e.seedRequest(t, a.appID, `{"notification":{"workflow":{"identifier":"digest"}},"recipients":[{"identifier":"cy"}]}`, "accepted", ago(2))
	other := e.seedRequest(t, b.appID, `{"notification":{"title":"Theirs"},"recipients":[{"identifier":"ann"}]}`, "completed", ago(1))
	// The topic send reached cy; the plain send ann on two channels.
	e.seedLogs(t, a.appID, users,
		logRow{req: r1, user: "ann", channel: "inApp", status: "delivered", at: ago(5)},
		logRow{req: r1, user: "ann", channel: "email", status: "failed", error: "550 no such mailbox", at: ago(5)},
		logRow{req: r3, user: "cy", channel: "inApp", status: "delivered", at: ago(3)})
	e.exec(t, `INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id, status)
		VALUES ($1, $2, 'onboarding', 'bob', $3, 'running')`, a.appID, r2, "flow/onboarding/"+r2.String()+"/bob")
	e.exec(t, `INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, detail, workflow_id)
		VALUES ($1, $2, 'onboarding', 1, 'bob', 'in-app-1', 'inApp', 'sent', '', $3),
		       ($1, $2, 'onboarding', 1, 'bob', 'delay-1', 'delay', 'waited', '1h', $3)`, a.appID, r2.String(), "flow/onboarding/"+r2.String()+"/bob")

	get := func(query string) requestPage {
		t.Helper()
		var p requestPage
		must(t, e.Do("GET", a.appPath("/requests"+query), nil, bearer(a.tok)), 200, "requests"+query).JSON(t, &p)
		return p
	}
	want := func(query string, ids ...uuid.UUID) requestPage {
		t.Helper()
		p := get(query)
		var got, exp []string
		for _, d := range p.Data {
			got = append(got, d.ID)
		}
		for _, id := range ids {
			exp = append(exp, id.String())
		}
		if !slices.Equal(got, exp) {
			t.Errorf("%s: requests %v, want %v", query, got, exp)
		}
		return p
	}

	// Newest first, another app's requests never.
	p := want("", r4, r3, r2, r1)
	if d := p.Data[2]; d.Workflow == nil || *d.Workflow != "onboarding" || d.Status != "started" || !slices.Equal(d.Recipients, []string{"bob"}) ||
		d.WorkflowID == nil || *d.WorkflowID != "send/"+r2.String() || !d.CreatedAt.Equal(ago(4)) {
		t.Errorf("workflow send %+v", d)
	}
	if d := p.Data[1]; d.Title == nil || *d.Title != "News" || !slices.Equal(d.Topics, []string{"news"}) || len(d.Recipients) != 0 {
		t.Errorf("topic send %+v", d)
	}
	if p.HasMore || p.NextCursor != nil || p.Limit != 20 {
		t.Errorf("page %+v", p)
	}

	// Filters, alone and together: a user named in the request or reached through a topic.
	want("?user=bob", r2, r1)
	want("?user=cy", r4, r3)
	want("?user=nobody")
	want("?workflow=onboarding", r2)
	want("?status=failed", r3)
	want("?user=bob&status=completed", r1)
	want("?user=ann&workflow=onboarding")

	// Pages by cursor.
	p = want("?limit=3", r4, r3, r2)
	if !p.HasMore || p.NextCursor == nil {
		t.Fatalf("first page %+v", p)
	}
	p = want("?limit=3&cursor="+*p.NextCursor, r1)
	if p.HasMore || p.NextCursor != nil {
		t.Errorf("last page %+v", p)
	}

	// One request: its messages by recipient and channel, its runs with their steps.
	var d requestDetail
	must(t, e.Do("GET", a.appPath("/requests/"+r1.String()), nil, bearer(a.tok)), 200, "detail").JSON(t, &d)
	if d.ID != r1.String() || len(d.Messages) != 2 || len(d.Runs) != 0 || d.Truncated {
		t.Fatalf("plain send detail %+v", d)
	}
	if m := d.Messages[0]; m.UserIdentifier != "ann" || m.Channel != "email" || m.Status != "failed" || m.Error == nil || *m.Error != "550 no such mailbox" {
		t.Errorf("message %+v", m)
	}
	d = requestDetail{}
	must(t, e.Do("GET", a.appPath("/requests/"+r2.String()), nil, bearer(a.tok)), 200, "workflow detail").JSON(t, &d)
	if len(d.Runs) != 1 || d.Runs[0].UserIdentifier != "bob" || d.Runs[0].Workflow != "onboarding" || d.Runs[0].Status != "running" ||
		len(d.Runs[0].Steps) != 2 || d.Runs[0].Steps[1].StepID != "delay-1" || d.Runs[0].Steps[1].Outcome != "waited" {
		t.Errorf("workflow send detail %+v", d)
	}

	// Viewers read; other clients, other apps' requests and anonymous callers do not.
	viewer := e.member(t, a.tok, a.client, "activityviewer@example.com", "viewer")
	must(t, e.Do("GET", a.appPath("/requests"), nil, bearer(viewer)), 200, "viewer list")
	must(t, e.Do("GET", a.appPath("/requests/"+r1.String()), nil, bearer(viewer)), 200, "viewer detail")
	wantError(t, e.Do("GET", a.appPath("/requests"), nil, bearer(b.tok)), 404, "app not found")
	wantError(t, e.Do("GET", a.appPath("/requests/"+other.String()), nil, bearer(a.tok)), 404, "notification request not found")
	wantError(t, e.Do("GET", a.appPath("/requests/"+uuid.NewString()), nil, bearer(a.tok)), 404, "notification request not found")
	for _, path := range []string{"/requests", "/requests/" + r1.String()} {
		if res := e.Do("GET", a.appPath(path), nil, nil); res.Status != 401 {
			t.Errorf("%s without a token: %d", path, res.Status)
		}
	}

	// Bad values: every rule at once.
	wantMessages(t, e.Do("GET", a.appPath("/requests?limit=0&status=sent&cursor=%25%25&workflow="+strings.Repeat("w", 101)+"&user="+strings.Repeat("u", 256)), nil, bearer(a.tok)),
		"limit must not be less than 1",
		"user must be at most 255 characters",
		"workflow must be at most 100 characters",
		"status must be one of the following values: accepted, scheduled, started, completed, failed, cancelled",
		"cursor is not a nextCursor of this list")
	wantMessages(t, e.Do("GET", a.appPath("/requests/not-a-uuid"), nil, bearer(a.tok)), "requestId must be a UUID")
	wantMessages(t, e.Do("GET", "/v1/apps/abc/requests", nil, bearer(a.tok)), "appId must be a positive integer")
}
