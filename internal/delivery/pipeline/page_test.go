package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/workflows/send"
)

// drain runs DeliverBatch until no cursor is pending and returns the calls and jobs.
func drain(t *testing.T, a *Service, cursors []send.Cursor) (int, []send.Job) {
	t.Helper()
	in := send.DeliverInput{Cursors: cursors}
	calls := 0
	var jobs []send.Job
	for len(in.Cursors) > 0 {
		res, err := a.DeliverBatch(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		calls++
		jobs = append(jobs, res.Jobs...)
		in.Cursors = res.Pending
		if calls > 100 {
			t.Fatal("DeliverBatch does not finish")
		}
	}
	return calls, jobs
}

func exec(t *testing.T, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.Pool.Exec(context.Background(), q, args...); err != nil {
		t.Fatal(err)
	}
}

func webhookInstance(t *testing.T, a *Service, appID int64, name, url string) channels.Instance {
	t.Helper()
	inst, err := a.Channels.CreateInstance(context.Background(), appID, "webhook", channels.InstanceInput{Provider: "webhook", Name: name,
		Config: json.RawMessage(`{"url":"` + url + `","secret":"0123456789abcdef"}`)})
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestTopicMembersArePagedWithTheirChannels(t *testing.T) {
	d, appID, a, _ := setup(t)
	a.BatchSize = 400
	webhookInstance(t, a, appID, "hook", "https://example.com/hook")
	exec(t, d, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, 'news', 'News')`, appID)
	// 1000 subscribers: even ones want in-app only, odd ones every channel.
	exec(t, d, `INSERT INTO users (app_id, identifier) SELECT $1, 'sub-' || g FROM generate_series(1, 1000) g`, appID)
	exec(t, d, `INSERT INTO topic_subscriptions (topic_id, user_id, channels)
		SELECT t.id, u.id, CASE WHEN substring(u.identifier from 5)::int % 2 = 0 THEN '{inApp}'::text[] ELSE '{}'::text[] END
		FROM topics t, users u WHERE t.app_id = $1 AND u.app_id = $1`, appID)
	req := accept(t, d, appID, `{"notification":{"title":"Hello"},"sendTo":{"recipients":["inline-1"],"topics":["news","missing"]}}`)
	first, err := a.DeliverBatch(context.Background(), send.DeliverInput{Cursors: []send.Cursor{{RequestID: req}}})
	if err != nil {
		t.Fatal(err)
	}
	calls, jobs := drain(t, a, first.Pending)
	calls++
	jobs = append(first.Jobs, jobs...)
	if calls != 3 {
		t.Errorf("%d calls, want 3 (1 inline + 1000 members in slices of 400)", calls)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", req); n != 1001 {
		t.Errorf("inbox rows %d, want 1001", n)
	}
	if len(jobs) != 501 || count(t, d, "SELECT count(*) FROM message_logs WHERE request_id = $1 AND channel = 'webhook' AND status = 'queued'", req) != 501 {
		t.Errorf("webhook jobs %d, want 501 (the inline user and the odd subscribers)", len(jobs))
	}
	row, _ := d.GetRequest(context.Background(), req)
	if row.Status != "completed" || row.DeliveredCount != 1001 {
		t.Errorf("request %s delivered %d", row.Status, row.DeliveredCount)
	}
	// A retried slice (even of a completed request) hands out the same jobs and writes
	// nothing twice.
	again, err := a.DeliverBatch(context.Background(), send.DeliverInput{Cursors: []send.Cursor{{RequestID: req}}})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again.Jobs) != fmt.Sprint(first.Jobs) || fmt.Sprint(again.Pending) != fmt.Sprint(first.Pending) || again.Delivered != 0 {
		t.Errorf("retry: %d jobs (first %d), pending %v (first %v), delivered %d", len(again.Jobs), len(first.Jobs), again.Pending, first.Pending, again.Delivered)
	}
	if n := count(t, d, "SELECT count(*) FROM message_logs WHERE request_id = $1", req); n != 1001+501 {
		t.Errorf("log rows after a retry: %d", n)
	}
	if n := count(t, d, "SELECT delivered_count FROM notification_requests WHERE id = $1", req); n != 1001 {
		t.Errorf("delivered count after a retry: %d", n)
	}
}

func TestSkipsAreLoggedWithTheirReason(t *testing.T) {
	d, appID, a, _ := setup(t)
	webhookInstance(t, a, appID, "hook", "https://example.com/hook")
	exec(t, d, `INSERT INTO categories (app_id, identifier, name) VALUES ($1, 'promo', 'Promotions')`, appID)
	exec(t, d, `INSERT INTO users (app_id, identifier) VALUES ($1, 'muted'), ($1, 'default-off')`, appID)
	exec(t, d, `INSERT INTO preferences (app_id, user_id, category_id, channel, enabled)
		SELECT $1, u.id, c.id, 'inApp', false FROM users u, categories c WHERE u.identifier = 'muted' AND c.identifier = 'promo'`, appID)
	// A default (no category) preference does not apply to a categorised send.
	exec(t, d, `INSERT INTO preferences (app_id, user_id, category_id, channel, enabled)
		SELECT $1, id, NULL, 'webhook', false FROM users WHERE identifier = 'default-off'`, appID)
	req := accept(t, d, appID, `{"notification":{"title":"Sale","category":"promo"},
		"sendTo":{"recipients":["muted","default-off",{"identifier":"mailable","email":"m@example.com"}]},
		"override":{"channels":["inApp","email","sms","webhook"]}}`)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	got := map[string]string{}
	rows, err := d.Pool.Query(context.Background(), `SELECT user_identifier || '/' || channel, status || ':' || coalesce(reason, '') FROM message_logs WHERE request_id = $1`, req)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k, v string
		_ = rows.Scan(&k, &v)
		got[k] = v
	}
	want := map[string]string{
		"muted/inApp": "skipped:opted out: category promo, channel inApp", "muted/email": "skipped:channel not configured", "muted/sms": "skipped:channel not configured", "muted/webhook": "queued:",
		"default-off/inApp": "delivered:", "default-off/email": "skipped:channel not configured", "default-off/sms": "skipped:channel not configured", "default-off/webhook": "queued:",
		"mailable/inApp": "delivered:", "mailable/email": "skipped:channel not configured", "mailable/sms": "skipped:channel not configured", "mailable/webhook": "queued:",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("log:\n got %v\nwant %v", got, want)
	}
	if len(jobs) != 3 {
		t.Errorf("jobs %v", jobs)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", req); n != 2 {
		t.Errorf("inbox rows %d, want 2 (muted turned in-app off for promo)", n)
	}
}

func TestRenderErrorFailsOnlyThatRecipientAndChannel(t *testing.T) {
	d, appID, a, _ := setup(t)
	webhookInstance(t, a, appID, "hook", "https://example.com/hook")
	ctx := context.Background()
	tpl, err := a.Templates.Create(ctx, appID, templates.TemplateInput{Identifier: "digest"})
	if err != nil {
		t.Fatal(err)
	}
	// Rendering explodes only for recipients whose profile holds a huge list.
	for ch, content := range map[string]string{
		"inApp":   `{"title":"{{#each user.profile.items}}{{#each ../user.profile.items}}{{#each ../../user.profile.items}}x{{/each}}{{/each}}{{/each}}Digest"}`,
		"webhook": `{"title":"Digest for {{user.identifier}}"}`,
	} {
		if _, err := a.Templates.SetContent(ctx, appID, tpl.ID, ch, templates.ContentInput{Fields: json.RawMessage(content)}); err != nil {
			t.Fatal(err)
		}
	}
	items := make([]int, 120)
	huge, _ := json.Marshal(map[string]any{"identifier": "huge", "items": items})
	req := accept(t, d, appID, `{"notification":{"templateIdentifier":"digest"},"sendTo":{"recipients":["small",`+string(huge)+`]}}`)
	_, jobs := drain(t, a, []send.Cursor{{RequestID: req}})
	var status, errText string
	if err := d.Pool.QueryRow(ctx, `SELECT status, coalesce(error, '') FROM message_logs WHERE request_id = $1 AND user_identifier = 'huge' AND channel = 'inApp'`, req).Scan(&status, &errText); err != nil {
		t.Fatal(err)
	}
	if status != "failed" || errText != "render: inApp.title: template does too much work (nested loops over large data)" {
		t.Errorf("huge/inApp: %s %q", status, errText)
	}
	if n := count(t, d, "SELECT count(*) FROM notifications WHERE request_id = $1", req); n != 1 {
		t.Errorf("inbox rows %d, want 1 (small's)", n)
	}
	if len(jobs) != 2 {
		t.Errorf("webhook jobs %d, want both recipients'", len(jobs))
	}
}
