package v1_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// counts are the analytics counts as the tests compare them:
// sent/delivered/failed/skipped/seen/read/clicked.
type counts struct{ Sent, Delivered, Failed, Skipped, Seen, Read, Clicked int64 }

func (c counts) String() string {
	return fmt.Sprintf("%d/%d/%d/%d/%d/%d/%d", c.Sent, c.Delivered, c.Failed, c.Skipped, c.Seen, c.Read, c.Clicked)
}

type dayCounts struct {
	Date string
	counts
}

type series struct {
	Totals counts
	Days   []dayCounts
}

// String lists the days as "date=counts", then the totals.
func (s series) String() string { return daysString(s.Days) + " total=" + s.Totals.String() }

func daysString(days []dayCounts) string {
	var out []string
	for _, d := range days {
		out = append(out, d.Date+"="+d.counts.String())
	}
	return strings.Join(out, " ")
}

func TestAnalyticsCountsPerDayTemplateAndChannel(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "analytics@example.com")
	b := e.tenant(t, "analytics2@example.com")
	ids := e.users(t, a.appID, "ann", "bob", "cy")
	tpl := func(tn tenant, identifier string) int64 {
		return int64(must(t, e.Do("POST", tn.appPath("/templates"), map[string]string{"identifier": identifier}, bearer(tn.tok)), 201, "template").Map(t)["id"].(float64))
	}
	welcome, digest := tpl(a, "welcome"), tpl(a, "digest")
	tpl(b, "welcome")

	d1 := time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC)
	d2 := d1.AddDate(0, 0, 1)
	r1, r2, r3, r4 := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	logs := e.seedLogs(t, a.appID, ids,
		logRow{req: r1, user: "ann", channel: "inApp", status: "delivered", template: "welcome", at: d1},
		logRow{req: r1, user: "bob", channel: "inApp", status: "delivered", template: "welcome", at: d1},
		logRow{req: r1, user: "ann", channel: "email", status: "queued", template: "welcome", at: d1},
		logRow{req: r1, user: "bob", channel: "email", status: "failed", template: "welcome", at: d1.Add(2 * time.Minute)},
		logRow{req: r1, user: "cy", channel: "email", status: "skipped", template: "welcome", at: d1},
		logRow{req: r2, user: "ann", channel: "inApp", status: "delivered", template: "welcome", at: d2.Add(time.Hour)},
		logRow{req: r3, user: "bob", channel: "inApp", status: "delivered", at: d2.Add(time.Hour)},
		logRow{req: r4, user: "ann", channel: "sms", status: "sent", template: "gone", at: d1.Add(time.Hour)},
	)
	// The email is sent, then the provider reports delivery and an open the next day; a
	// claim in between changes nothing.
	e.exec(t, "UPDATE message_logs SET attempts = 1, locked_until = now() WHERE id = $1", logs[2])
	e.exec(t, "UPDATE message_logs SET status = 'sent', sent_at = $2 WHERE id = $1", logs[2], d1.Add(time.Minute))
	e.exec(t, "UPDATE message_logs SET status = 'opened', delivered_at = $2, opened_at = $3 WHERE id = $1", logs[2], d2.Add(-time.Hour), d2.Add(-55*time.Minute))
	// In-app rows: ann sees R1 on day 1, reads and clicks it on day 2; bob reads R1 and
	// marks it unread again; ann sees R2; bob reads R3 (no template).
	note := func(req uuid.UUID, user string) int64 {
		var id int64
		if err := e.Stack.DB.Pool.QueryRow(context.Background(), "INSERT INTO notifications (app_id, user_id, request_id) VALUES ($1, $2, $3) RETURNING id",
			a.appID, ids[user], req).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	annR1, bobR1, annR2, bobR3 := note(r1, "ann"), note(r1, "bob"), note(r2, "ann"), note(r3, "bob")
	e.exec(t, "UPDATE notifications SET seen_at = $2 WHERE id = $1", annR1, d1.Add(time.Hour))
	e.exec(t, "UPDATE notifications SET read_at = $2, clicked_at = $2 WHERE id = $1", annR1, d2)
	e.exec(t, "UPDATE notifications SET read_at = $2 WHERE id = $1", bobR1, d1.Add(2*time.Hour))
	e.exec(t, "UPDATE notifications SET read_at = NULL WHERE id = $1", bobR1)
	e.exec(t, "UPDATE notifications SET seen_at = $2 WHERE id = $1", annR2, d2.Add(2*time.Hour))
	e.exec(t, "UPDATE notifications SET read_at = $2 WHERE id = $1", bobR3, d2.Add(3*time.Hour))

	rng := "?fromDate=2026-01-10&toDate=2026-01-12"
	get := func(path string, v any) []byte {
		t.Helper()
		res := must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, path)
		res.JSON(t, v)
		return res.Body
	}
	base := fmt.Sprintf("/v1/analytics/apps/%d", a.appID)
	paths := []string{base + rng, base + "/templates" + rng, base + "/channels" + rng, fmt.Sprintf("%s/templates/%d%s", base, welcome, rng),
		fmt.Sprintf("%s/templates/%d/channels%s", base, welcome, rng), fmt.Sprintf("%s/templates/%d/notifications%s", base, welcome, rng)}
	check := func() map[string]string {
		t.Helper()
		bodies := map[string]string{}
		var days []dayCounts
		bodies[paths[0]] = string(get(paths[0], &days))
		if got, want := daysString(days), "2026-01-10=4/2/1/1/1/0/0 2026-01-11=2/3/0/0/1/3/1 2026-01-12=0/0/0/0/0/0/0"; got != want {
			t.Errorf("app days\n got %s\nwant %s", got, want)
		}
		var tpls struct {
			Templates []struct {
				ID         *int64
				Identifier string
				series
			}
			WithoutTemplate series
		}
		bodies[paths[1]] = string(get(paths[1], &tpls))
		var got []string
		for _, x := range tpls.Templates {
			id := "null"
			if x.ID != nil {
				id = fmt.Sprint(*x.ID == welcome || *x.ID == digest)
			}
			got = append(got, x.Identifier+"("+id+"): "+x.series.String())
		}
		want := []string{
			"digest(true): 2026-01-10=0/0/0/0/0/0/0 2026-01-11=0/0/0/0/0/0/0 2026-01-12=0/0/0/0/0/0/0 total=0/0/0/0/0/0/0",
			"welcome(true): 2026-01-10=3/2/1/1/1/0/0 2026-01-11=1/2/0/0/1/2/1 2026-01-12=0/0/0/0/0/0/0 total=4/4/1/1/2/2/1",
			"gone(null): 2026-01-10=1/0/0/0/0/0/0 2026-01-11=0/0/0/0/0/0/0 2026-01-12=0/0/0/0/0/0/0 total=1/0/0/0/0/0/0",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("templates\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
		}
		if got, want := tpls.WithoutTemplate.String(), "2026-01-10=0/0/0/0/0/0/0 2026-01-11=1/1/0/0/0/1/0 2026-01-12=0/0/0/0/0/0/0 total=1/1/0/0/0/1/0"; got != want {
			t.Errorf("without template\n got %s\nwant %s", got, want)
		}
		channels := func(path, want string) {
			t.Helper()
			var list []struct {
				Channel string
				series
			}
			bodies[path] = string(get(path, &list))
			var got []string
			for _, c := range list {
				got = append(got, c.Channel+": "+c.series.String())
			}
			if strings.Join(got, "\n") != want {
				t.Errorf("%s\n got %s\nwant %s", path, strings.Join(got, "\n"), want)
			}
		}
		channels(paths[2], "inApp: 2026-01-10=2/2/0/0/1/0/0 2026-01-11=2/2/0/0/1/2/1 2026-01-12=0/0/0/0/0/0/0 total=4/4/0/0/2/2/1\n"+
			"email: 2026-01-10=1/0/1/1/0/0/0 2026-01-11=0/1/0/0/0/1/0 2026-01-12=0/0/0/0/0/0/0 total=1/1/1/1/0/1/0\n"+
			"sms: 2026-01-10=1/0/0/0/0/0/0 2026-01-11=0/0/0/0/0/0/0 2026-01-12=0/0/0/0/0/0/0 total=1/0/0/0/0/0/0")
		var one struct {
			ID         int64
			Identifier string
			series
		}
		bodies[paths[3]] = string(get(paths[3], &one))
		if got, want := one.series.String(), "2026-01-10=3/2/1/1/1/0/0 2026-01-11=1/2/0/0/1/2/1 2026-01-12=0/0/0/0/0/0/0 total=4/4/1/1/2/2/1"; got != want || one.ID != welcome || one.Identifier != "welcome" {
			t.Errorf("template %d %s\n got %s\nwant %s", one.ID, one.Identifier, got, want)
		}
		channels(paths[4], "inApp: 2026-01-10=2/2/0/0/1/0/0 2026-01-11=1/1/0/0/1/1/1 2026-01-12=0/0/0/0/0/0/0 total=3/3/0/0/2/1/1\n"+
			"email: 2026-01-10=1/0/1/1/0/0/0 2026-01-11=0/1/0/0/0/1/0 2026-01-12=0/0/0/0/0/0/0 total=1/1/1/1/0/1/0")
		var sends struct {
			Pagination struct{ TotalCount, Page, Limit int }
			Data       []struct {
				RequestID, WorkflowID string
				CreatedAt             time.Time
				counts
			}
		}
		bodies[paths[5]] = string(get(paths[5], &sends))
		got = nil
		for _, s := range sends.Data {
			got = append(got, fmt.Sprintf("%s %s %s %s", s.RequestID, s.WorkflowID, s.CreatedAt.Format(time.RFC3339), s.counts))
		}
		want = []string{
			fmt.Sprintf("%s send/%s 2026-01-11T10:00:00Z 1/1/0/0/1/0/0", r2, r2),
			fmt.Sprintf("%s send/%s 2026-01-10T09:00:00Z 3/3/1/1/1/2/1", r1, r1),
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || sends.Pagination.TotalCount != 2 {
			t.Errorf("sends (total %d)\n got %s\nwant %s", sends.Pagination.TotalCount, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		return bodies
	}

	// Exact from the pending changes, and the same once rolled up.
	pending := check()
	moved, err := e.Stack.Analytics.Rollup(context.Background())
	if err != nil || moved == 0 {
		t.Fatalf("rollup moved %d: %v", moved, err)
	}
	var left int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), "SELECT count(*) FROM analytics_pending").Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d pending rows left (%v)", left, err)
	}
	for path, body := range check() {
		if body != pending[path] {
			t.Errorf("%s changed by the rollup:\n%s\n%s", path, pending[path], body)
		}
	}

	// A change after the rollup shows at once: pending and rolled-up counts add up.
	e.exec(t, "UPDATE notifications SET read_at = $2 WHERE id = $1", annR2, d2.Add(4*time.Hour))
	var days []dayCounts
	get(base+rng, &days)
	if got := days[1].counts.String(); got != "2/3/0/0/1/4/1" {
		t.Errorf("day 2 after a read: %s", got)
	}

	// Pages of sends.
	var page struct {
		Pagination struct{ TotalCount, Page, Limit int }
		Data       []struct{ RequestID string }
	}
	get(fmt.Sprintf("%s/templates/%d/notifications%s&page=2&limit=1", base, welcome, rng), &page)
	if page.Pagination.TotalCount != 2 || len(page.Data) != 1 || page.Data[0].RequestID != r1.String() {
		t.Errorf("page 2: %+v", page)
	}
	get(fmt.Sprintf("%s/templates/%d/notifications?fromDate=2026-01-11&toDate=2026-01-11", base, welcome), &page)
	if page.Pagination.TotalCount != 1 || len(page.Data) != 1 || page.Data[0].RequestID != r2.String() {
		t.Errorf("sends of day 2: %+v", page)
	}
}

func TestAnalyticsAccessAndBadQueries(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "analytics3@example.com")
	b := e.tenant(t, "analytics4@example.com")
	bTemplate := int64(must(t, e.Do("POST", b.appPath("/templates"), map[string]string{"identifier": "welcome"}, bearer(b.tok)), 201, "template").Map(t)["id"].(float64))
	base := fmt.Sprintf("/v1/analytics/apps/%d", a.appID)
	routes := []string{"", "/templates", "/channels", "/templates/1", "/templates/1/channels", "/templates/1/notifications"}
	viewer := e.member(t, a.tok, a.client, "analyticsviewer@example.com", "viewer")

	// Without a range: the last 30 days, today included.
	var days []dayCounts
	must(t, e.Do("GET", base, nil, bearer(viewer)), 200, "viewer reads").JSON(t, &days)
	today := time.Now().UTC().Format("2006-01-02")
	if len(days) != 30 || days[29].Date != today || days[0].Date != time.Now().UTC().AddDate(0, 0, -29).Format("2006-01-02") {
		t.Errorf("default range: %d days, last %v", len(days), days[len(days)-1])
	}
	must(t, e.Do("GET", base+"?fromDate=2026-03-01", nil, bearer(a.tok)), 200, "from only").JSON(t, &days)
	if days[0].Date != "2026-03-01" || days[len(days)-1].Date != today {
		t.Errorf("fromDate only: %s..%s", days[0].Date, days[len(days)-1].Date)
	}
	must(t, e.Do("GET", base+"?toDate=2026-03-31T10:00:00%2B02:00", nil, bearer(a.tok)), 200, "to only").JSON(t, &days)
	if len(days) != 30 || days[0].Date != "2026-03-02" || days[29].Date != "2026-03-31" {
		t.Errorf("toDate only: %d days %s..%s", len(days), days[0].Date, days[len(days)-1].Date)
	}

	for _, r := range routes {
		if res := e.Do("GET", base+r, nil, nil); res.Status != 401 {
			t.Errorf("%s without a token: %d", r, res.Status)
		}
		wantError(t, e.Do("GET", base+r, nil, bearer(b.tok)), 404, "app not found")
		wantMessages(t, e.Do("GET", base+r+"?fromDate=2026-02-30&toDate=tomorrow", nil, bearer(a.tok)),
			"fromDate must be a date (YYYY-MM-DD) or a date-time (RFC 3339)", "toDate must be a date (YYYY-MM-DD) or a date-time (RFC 3339)")
		wantMessages(t, e.Do("GET", base+r+"?fromDate=2026-02-02&toDate=2026-02-01T23:59:59Z", nil, bearer(a.tok)), "toDate must not be before fromDate")
		wantMessages(t, e.Do("GET", base+r+"?fromDate=2025-01-01&toDate=2026-01-02", nil, bearer(a.tok)), "the range from fromDate to toDate must not exceed 366 days")
	}
	// Another app's template is not found in this app; a template id must be a number.
	for _, r := range []string{"", "/channels", "/notifications"} {
		wantError(t, e.Do("GET", fmt.Sprintf("%s/templates/%d%s", base, bTemplate, r), nil, bearer(a.tok)), 404, "template not found")
		wantMessages(t, e.Do("GET", base+"/templates/x"+r, nil, bearer(a.tok)), "templateId must be a positive integer")
	}
	mine := int64(must(t, e.Do("POST", a.appPath("/templates"), map[string]string{"identifier": "welcome"}, bearer(a.tok)), 201, "template").Map(t)["id"].(float64))
	notes := fmt.Sprintf("%s/templates/%d/notifications", base, mine)
	wantMessages(t, e.Do("GET", notes+"?page=0&limit=101", nil, bearer(a.tok)), "page must not be less than 1", "limit must not be greater than 100")
	wantMessages(t, e.Do("GET", notes+"?limit=x", nil, bearer(a.tok)), "limit must be an integer number")
	must(t, e.Do("GET", notes+"?fromDate=2024-01-01&toDate=2024-12-31&limit=100", nil, bearer(viewer)), 200, "a year of sends")
}

// An in-app notification written by a workflow step (source key flow:<step>) counts for the
// template of that step's message log row, not for the send's.
func TestAnalyticsAttributeWorkflowStepsToTheirTemplate(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "steps@example.com")
	ids := e.users(t, a.appID, "ann")
	day := time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)
	req := uuid.New()
	e.seedLogs(t, a.appID, ids, logRow{req: req, user: "ann", channel: "inApp", status: "delivered", template: "plain", at: day})
	e.exec(t, `INSERT INTO message_logs (app_id, request_id, workflow_id, user_id, user_identifier, channel, step_key, status, template_identifier,
		idempotency_key, created_at) VALUES ($1, $2, 'flow/x', $3, 'ann', 'inApp', 'remind', 'queued', 'reminder', 'k', $4)`, a.appID, req, ids["ann"], day)
	e.exec(t, "UPDATE message_logs SET status = 'delivered', delivered_at = $2 WHERE step_key = 'remind' AND request_id = $1", req, day.Add(time.Hour))
	e.exec(t, "INSERT INTO notifications (app_id, user_id, request_id, source_key) VALUES ($1, $2, $3, ''), ($1, $2, $3, 'flow:remind')", a.appID, ids["ann"], req)
	e.exec(t, "UPDATE notifications SET read_at = $2 WHERE request_id = $1 AND source_key = 'flow:remind'", req, day.Add(2*time.Hour))
	e.exec(t, "UPDATE notifications SET seen_at = $2 WHERE request_id = $1", req, day.Add(3*time.Hour))

	var rep struct {
		Templates []struct {
			Identifier string
			series
		}
	}
	must(t, e.Do("GET", fmt.Sprintf("/v1/analytics/apps/%d/templates?fromDate=2026-02-01&toDate=2026-02-01", a.appID), nil, bearer(a.tok)), 200, "templates").JSON(t, &rep)
	var got []string
	for _, x := range rep.Templates {
		got = append(got, x.Identifier+" "+x.Totals.String())
	}
	if want := "plain 1/1/0/0/1/0/0,reminder 1/1/0/0/1/1/0"; strings.Join(got, ",") != want {
		t.Errorf("templates %v, want %s", got, want)
	}
}
