package pipeline

import (
	"context"
	"fmt"
	"testing"

	"github.com/heraldhq/herald/workflows/send"
)

// TestChannelOptOutAndCriticalAreLogged: a channel turned off for every notification skips
// a normal send with its reason; a critical category's send ignores both kinds of opt-out
// and its rows say which one it ignored.
func TestChannelOptOutAndCriticalAreLogged(t *testing.T) {
	d, appID, a, _ := setup(t)
	webhookInstance(t, a, appID, "hook", "https://example.com/hook")
	exec(t, d, `INSERT INTO categories (app_id, identifier, name) VALUES ($1, 'promo', 'Promotions')`, appID)
	exec(t, d, `INSERT INTO categories (app_id, identifier, name, critical) VALUES ($1, 'security', 'Security', true)`, appID)
	exec(t, d, `INSERT INTO users (app_id, identifier) VALUES ($1, 'nohook')`, appID)
	exec(t, d, `INSERT INTO channel_preferences (app_id, user_id, channel, enabled) SELECT $1, id, 'webhook', false FROM users WHERE identifier = 'nohook'`, appID)
	exec(t, d, `INSERT INTO preferences (app_id, user_id, category_id, channel, enabled)
		SELECT $1, u.id, c.id, 'inApp', false FROM users u, categories c WHERE u.identifier = 'nohook' AND c.app_id = $1`, appID)

	logs := func(body string) map[string]string {
		req := accept(t, d, appID, body)
		drain(t, a, []send.Cursor{{RequestID: req}})
		got := map[string]string{}
		rows, err := d.Pool.Query(context.Background(), `SELECT channel, status || ':' || coalesce(reason, '') FROM message_logs WHERE request_id = $1`, req)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var k, v string
			_ = rows.Scan(&k, &v)
			got[k] = v
		}
		return got
	}
	normal := logs(`{"notification":{"title":"Sale","category":"promo"},"sendTo":{"recipients":["nohook"]},"override":{"channels":["inApp","webhook"]}}`)
	want := map[string]string{"inApp": "skipped:opted out: category promo, channel inApp", "webhook": "skipped:opted out: channel webhook (all notifications)"}
	if fmt.Sprint(normal) != fmt.Sprint(want) {
		t.Errorf("normal:\n got %v\nwant %v", normal, want)
	}
	critical := logs(`{"notification":{"title":"New sign-in","category":"security"},"sendTo":{"recipients":["nohook"]},"override":{"channels":["inApp","webhook"]}}`)
	want = map[string]string{
		"inApp":   "delivered:critical (category security): delivered despite opted out: category security, channel inApp",
		"webhook": "queued:critical (category security): delivered despite opted out: channel webhook (all notifications)",
	}
	if fmt.Sprint(critical) != fmt.Sprint(want) {
		t.Errorf("critical:\n got %v\nwant %v", critical, want)
	}
}

// TestCriticalFlowStepIgnoresOptOuts: a step of a workflow marked critical is delivered to
// a user who turned its channel off everywhere, and its log row says so; once the mark is
// off, the next step is skipped with the opt-out's reason.
func TestCriticalFlowStepIgnoresOptOuts(t *testing.T) {
	d, appID, a, _ := setup(t)
	ep := newEndpoint(t)
	webhookInstance(t, a, appID, "hook", ep.srv.URL)
	exec(t, d, `INSERT INTO flows (app_id, identifier, name, draft, critical) VALUES ($1, 'wf', 'WF', '{"steps":[]}', true)`, appID)
	in := flowSend(t, d, appID, `{"notification":{"workflow":{"identifier":"wf"}},"sendTo":{"recipients":["ann"]}}`)
	exec(t, d, `INSERT INTO channel_preferences (app_id, user_id, channel, enabled) VALUES ($1, $2, 'webhook', false)`, appID, in.Recipient.UserID)
	ctx := context.Background()
	in.Step = step(`{"id":"hook","type":"webhook","content":{"body":"b"}}`)
	if res, err := a.DeliverStep(ctx, in); err != nil || res.Status != "sent" {
		t.Fatalf("critical: %+v %v", res, err)
	}
	want := "critical (workflow wf): delivered despite opted out: channel webhook (all notifications)"
	if l := stepLogs(t, d, in.RequestID)["hook/webhook"]; l.Status != "sent" || l.Reason != want {
		t.Errorf("critical log %+v", l)
	}
	exec(t, d, `UPDATE flows SET critical = false WHERE app_id = $1`, appID)
	in.Step = step(`{"id":"hook2","type":"webhook","content":{"body":"b"}}`)
	if res, _ := a.DeliverStep(ctx, in); res.Status != "skipped" || res.Reason != "opted out: channel webhook (all notifications)" {
		t.Errorf("not critical: %+v", res)
	}
	if ep.calls() != 1 {
		t.Errorf("calls %d, want 1", ep.calls())
	}
}

// TestFlowOptOutsInSteps: a user's switches for a workflow skip its steps with the flow's
// reason, and the most specific switch wins over the category's.
func TestFlowOptOutsInSteps(t *testing.T) {
	d, appID, a, _ := setup(t)
	ep := newEndpoint(t)
	webhookInstance(t, a, appID, "hook", ep.srv.URL)
	exec(t, d, `INSERT INTO flows (app_id, identifier, name, draft) VALUES ($1, 'wf', 'WF', '{"steps":[]}')`, appID)
	exec(t, d, `INSERT INTO categories (app_id, identifier, name) VALUES ($1, 'news', 'News')`, appID)
	in := flowSend(t, d, appID, `{"notification":{"workflow":{"identifier":"wf"},"category":"news"},"sendTo":{"recipients":["ann"]}}`)
	// Category × channel off, flow × channel on: the flow's switch wins.
	exec(t, d, `INSERT INTO preferences (app_id, user_id, category_id, channel, enabled) SELECT $1, $2, id, 'webhook', false FROM categories WHERE app_id = $1`, appID, in.Recipient.UserID)
	exec(t, d, `INSERT INTO flow_preferences (app_id, user_id, flow_id, channel, enabled) SELECT $1, $2, id, 'webhook', true FROM flows WHERE app_id = $1`, appID, in.Recipient.UserID)
	ctx := context.Background()
	in.Step = step(`{"id":"hook","type":"webhook","content":{"body":"b"}}`)
	if res, err := a.DeliverStep(ctx, in); err != nil || res.Status != "sent" {
		t.Fatalf("flow × channel on: %+v %v", res, err)
	}
	// The whole flow off, the channel's switch gone: skipped with the flow's reason.
	exec(t, d, `DELETE FROM flow_preferences`)
	exec(t, d, `INSERT INTO flow_preferences (app_id, user_id, flow_id, channel, enabled) SELECT $1, $2, id, '', false FROM flows WHERE app_id = $1`, appID, in.Recipient.UserID)
	in.Step = step(`{"id":"hook2","type":"webhook","content":{"body":"b"}}`)
	if res, _ := a.DeliverStep(ctx, in); res.Status != "skipped" || res.Reason != "opted out: flow wf" {
		t.Errorf("flow off: %+v", res)
	}
	if l := stepLogs(t, d, in.RequestID)["hook2/webhook"]; l.Status != "skipped" || l.Reason != "opted out: flow wf" {
		t.Errorf("log %+v", l)
	}
	if ep.calls() != 1 {
		t.Errorf("calls %d, want 1", ep.calls())
	}
}
