package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// flowSend accepts a send naming a workflow and creates its recipients; it returns the
// input of a step for the first recipient.
func flowSend(t *testing.T, d *db.DB, appID int64, body string) flowrun.DeliverStepInput {
	t.Helper()
	req := store(t, d, appID, body)
	var parsed herald.SendRequest
	row, err := d.GetRequest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(row.Payload, &parsed); err != nil {
		t.Fatal(err)
	}
	ids, err := EnsureUsers(context.Background(), d.Queries, appID, parsed.Recipients)
	if err != nil {
		t.Fatal(err)
	}
	var data map[string]any
	_ = json.Unmarshal(parsed.Data, &data)
	return flowrun.DeliverStepInput{
		AppID: appID, RequestID: req.String(), Flow: flowrun.Ref{Identifier: "wf", Version: 1},
		Category: parsed.Notification.Category, Data: data,
		Recipient: flowrun.Recipient{UserID: ids[0], Identifier: parsed.Recipients[0].Identifier},
	}
}

func step(raw string) flowdef.Step {
	var s flowdef.Step
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		panic(err)
	}
	return s
}

type stepLogRow struct {
	Status, Reason, Error, StepKey, IdempotencyKey string
}

func stepLogs(t *testing.T, d *db.DB, requestID string) map[string]stepLogRow {
	t.Helper()
	rows, err := d.Pool.Query(context.Background(), `SELECT step_key, channel, status, coalesce(reason, ''), coalesce(error, ''), idempotency_key
		FROM message_logs WHERE request_id = $1`, requestID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]stepLogRow{}
	for rows.Next() {
		var r stepLogRow
		var channel string
		if err := rows.Scan(&r.StepKey, &channel, &r.Status, &r.Reason, &r.Error, &r.IdempotencyKey); err != nil {
			t.Fatal(err)
		}
		out[r.StepKey+"/"+channel] = r
	}
	return out
}

func TestDeliverStepInAppOncePerStep(t *testing.T) {
	d, appID, a, pub := setup(t)
	in := flowSend(t, d, appID, `{"notification":{"workflow":{"identifier":"wf"},"category":"news"},"sendTo":{"recipients":["ann"]},"data":{"n":1}}`)
	in.Data["fetched"] = "yes" // a fetch step added this
	ctx := context.Background()
	in.Step = step(`{"id":"first","type":"inApp","content":{"title":"Hi {{user.identifier}}","message":"{{data.n}} {{data.fetched}}"}}`)
	res, err := a.DeliverStep(ctx, in)
	if err != nil || res.Status != "sent" || res.NotificationID == 0 {
		t.Fatalf("in-app step: %+v %v", res, err)
	}
	again, err := a.DeliverStep(ctx, in)
	if err != nil || again != res {
		t.Errorf("a retried step answers as before: %+v %v", again, err)
	}
	in.Step = step(`{"id":"second","type":"inApp","content":{"title":"Again"}}`)
	second, err := a.DeliverStep(ctx, in)
	if err != nil || second.NotificationID == res.NotificationID {
		t.Fatalf("a second in-app step of the run writes its own row: %+v %v", second, err)
	}
	var title, message, source, data string
	if err := d.Pool.QueryRow(ctx, `SELECT title, message, source_key, data::text FROM notifications WHERE id = $1`, res.NotificationID).Scan(&title, &message, &source, &data); err != nil {
		t.Fatal(err)
	}
	if title != "Hi ann" || message != "1 yes" || source != "flow:first" || !strings.Contains(data, `"fetched": "yes"`) {
		t.Errorf("inbox row %q %q %q %s", title, message, source, data)
	}
	if n := count(t, d, `SELECT count(*) FROM notifications`); n != 2 {
		t.Errorf("%d inbox rows", n)
	}
	logs := stepLogs(t, d, in.RequestID)
	if l := logs["first/inApp"]; l.Status != "delivered" || !strings.HasSuffix(l.IdempotencyKey, ":ann:inApp:first") {
		t.Errorf("log of the first step %+v", l)
	}
	var card string
	if err := d.Pool.QueryRow(ctx, `SELECT c.content::text FROM message_contents c JOIN message_logs m ON m.id = c.message_log_id WHERE m.request_id = $1 AND m.step_key = 'first'`, in.RequestID).Scan(&card); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(card, `"title": "Hi ann"`) || !strings.Contains(card, `"body": "1 yes"`) {
		t.Errorf("the in-app card as recorded: %s", card)
	}
	if len(pub.events) != 2 || pub.events[0].Kind != events.NewNotification || pub.events[0].NotificationIDs[0] != res.NotificationID {
		t.Errorf("events %+v", pub.events)
	}
}

func TestDeliverStepExternalWithBatchAndRetries(t *testing.T) {
	d, appID, a, _ := setup(t)
	ep := newEndpoint(t, 429, 200)
	webhookInstance(t, a, appID, "hook", ep.srv.URL)
	in := flowSend(t, d, appID, `{"notification":{"workflow":{"identifier":"wf"}},"sendTo":{"recipients":["ann"]},"data":{"n":1}}`)
	in.Step = step(`{"id":"hook","type":"webhook","content":{"title":"{{batch.count}} news","body":"{{#each batch.items}}{{n}};{{/each}}"}}`)
	in.Batch = &flowrun.Batch{Count: 2, Items: []map[string]any{{"n": 1}, {"n": 2}}}
	ctx := context.Background()
	_, err := a.DeliverStep(ctx, in)
	var app *Failure
	if !errors.As(err, &app) || app.Permanent || app.RetryAfter.Seconds() != 7 {
		t.Fatalf("429 retries after its Retry-After: %v", err)
	}
	res, err := a.DeliverStep(ctx, in)
	if err != nil || res.Status != "sent" {
		t.Fatalf("second attempt: %+v %v", res, err)
	}
	var payload map[string]any
	_ = json.Unmarshal([]byte(ep.bodies[1]), &payload)
	if payload["title"] != "2 news" || payload["message"] != "1;2;" {
		t.Errorf("payload %v", payload)
	}
	if res, err := a.DeliverStep(ctx, in); err != nil || res.Status != "sent" || ep.calls() != 2 {
		t.Errorf("a retried step after success sent again: %+v %v (%d calls)", res, err, ep.calls())
	}
	if l := stepLogs(t, d, in.RequestID)["hook/webhook"]; l.Status != "sent" {
		t.Errorf("log %+v", l)
	}
	// What it sent, for the run timeline (the instance's URL, maybe a secret, is not in it).
	var content string
	if err := d.Pool.QueryRow(ctx, `SELECT c.content::text FROM message_contents c JOIN message_logs m ON m.id = c.message_log_id WHERE m.request_id = $1 AND m.step_key = 'hook'`, in.RequestID).Scan(&content); err != nil {
		t.Fatal(err)
	}
	var sent map[string]any
	_ = json.Unmarshal([]byte(content), &sent)
	if sent["title"] != "2 news" || sent["body"] != "1;2;" || sent["truncated"] != false || strings.Contains(content, ep.srv.URL) {
		t.Errorf("content %s", content)
	}

	// A provider's 4xx fails the step for good.
	bad := newEndpoint(t, 400)
	exec(t, d, `DELETE FROM provider_instances`)
	webhookInstance(t, a, appID, "bad", bad.srv.URL)
	in.Step.ID = "hook2"
	res, err = a.DeliverStep(ctx, in)
	if !errors.As(err, &app) || !app.Permanent || res.Status != "failed" {
		t.Errorf("400: %+v %v", res, err)
	}
	if l := stepLogs(t, d, in.RequestID)["hook2/webhook"]; l.Status != "failed" || !strings.Contains(l.Error, "400") {
		t.Errorf("log %+v", l)
	}
}

func TestDeliverStepSkipsAndFailures(t *testing.T) {
	d, appID, a, _ := setup(t)
	ep := newEndpoint(t)
	webhookInstance(t, a, appID, "hook", ep.srv.URL)
	in := flowSend(t, d, appID, `{"notification":{"workflow":{"identifier":"wf"},"category":"news"},"sendTo":{"recipients":["ann"]}}`)
	exec(t, d, `INSERT INTO categories (app_id, identifier, name) VALUES ($1, 'news', 'News')`, appID)
	exec(t, d, `INSERT INTO preferences (app_id, user_id, category_id, channel, enabled)
		SELECT $1, $2, id, 'webhook', false FROM categories WHERE app_id = $1 AND identifier = 'news'`, appID, in.Recipient.UserID)
	ctx := context.Background()
	cases := []struct{ step, status, reason string }{
		{`{"id":"mail","type":"email","content":{"subject":"s","text":"t"}}`, "skipped", "channel not configured"},
		{`{"id":"hook","type":"webhook","content":{"body":"b"}}`, "skipped", "opted out: category news, channel webhook"},
		{`{"id":"push","type":"inApp","template":"gone"}`, "failed", `template "gone" not found`},
		{`{"id":"broken","type":"inApp","content":{"title":"{{#each data.x}}"}}`, "failed", "render: "},
	}
	for _, c := range cases {
		in.Step = step(c.step)
		res, err := a.DeliverStep(ctx, in)
		if res.Status != c.status || !strings.Contains(res.Reason, c.reason) {
			t.Errorf("%s: %+v %v", in.Step.ID, res, err)
		}
		if c.status == "failed" && (err == nil || !isNonRetryable(err)) {
			t.Errorf("%s: a permanent failure must not be retried: %v", in.Step.ID, err)
		}
		l := stepLogs(t, d, in.RequestID)[in.Step.ID+"/"+in.Step.Type]
		if l.Status != c.status || !strings.Contains(l.Reason+l.Error, c.reason) {
			t.Errorf("%s: log %+v", in.Step.ID, l)
		}
	}
	if ep.calls() != 0 {
		t.Errorf("a skipped step was sent")
	}
	// A topic subscriber gets only its subscription's channels.
	in.Recipient.Channels = []string{"email"}
	in.Step = step(`{"id":"topic","type":"inApp","content":{"title":"t"}}`)
	if res, _ := a.DeliverStep(ctx, in); res.Status != "skipped" || res.Reason != "not among the topic subscription's channels" {
		t.Errorf("topic channels: %+v", res)
	}
	in.Recipient.Channels = nil
	// The email channel is configured, but the user has no address.
	if _, err := a.Channels.CreateInstance(ctx, appID, "email", channels.InstanceInput{Provider: "smtp", Name: "mail",
		Config: json.RawMessage(`{"host":"127.0.0.1","port":1,"security":"none","from":"a@b.test"}`)}); err != nil {
		t.Fatal(err)
	}
	in.Step = step(`{"id":"mail2","type":"email","content":{"subject":"s","text":"t"}}`)
	if res, _ := a.DeliverStep(ctx, in); res.Status != "skipped" || res.Reason != "no email address" {
		t.Errorf("no address: %+v", res)
	}
}

// TestAddressTextHidesSecrets: the address the run timeline shows: an incoming webhook's
// host only (its path is its secret), push tokens counted, not shown.
func TestAddressTextHidesSecrets(t *testing.T) {
	for _, c := range []struct {
		in   providers.Address
		want string
	}{
		{providers.Address{Email: "ann@example.com"}, "ann@example.com"},
		{providers.Address{PhoneNumber: "+4915100000000"}, "+4915100000000"},
		{providers.Address{WebhookURL: "https://hooks.slack.com/services/T0/B0/secret"}, "https://hooks.slack.com/…"},
		{providers.Address{PushTokens: []string{"a", "b"}}, "2 push token(s)"},
	} {
		if got := addressText(c.in); got != c.want {
			t.Errorf("addressText(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRecordingAFailedStepGivesUpItsMessage(t *testing.T) {
	d, appID, a, _ := setup(t)
	ep := newEndpoint(t, 503)
	webhookInstance(t, a, appID, "hook", ep.srv.URL)
	in := flowSend(t, d, appID, `{"notification":{"workflow":{"identifier":"wf"}},"sendTo":{"recipients":["ann"]}}`)
	in.Step = step(`{"id":"hook","type":"webhook","content":{"body":"b"}}`)
	if _, err := a.DeliverStep(context.Background(), in); err == nil || isNonRetryable(err) {
		t.Fatalf("503 is retried: %v", err)
	}
	f := &flow.Runs{DB: d}
	if err := f.RecordStep(context.Background(), flowrun.StepRecord{AppID: appID, RequestID: in.RequestID, Flow: in.Flow, User: "ann",
		StepID: "hook", StepType: "webhook", Outcome: "failed", Detail: "retries ran out"}, ""); err != nil {
		t.Fatal(err)
	}
	if l := stepLogs(t, d, in.RequestID)["hook/webhook"]; l.Status != "failed" || !strings.Contains(l.Error, "503") || !strings.Contains(l.Error, "gave up: retries ran out") {
		t.Errorf("log %+v", l)
	}
	if n := count(t, d, `SELECT count(*) FROM flow_logs WHERE step_id = 'hook' AND outcome = 'failed'`); n != 1 {
		t.Errorf("%d workflow log lines", n)
	}
}

func isNonRetryable(err error) bool {
	var f *Failure
	return errors.As(err, &f) && f.Permanent
}
