package activities

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/internal/send"
	"github.com/heraldhq/herald/workflows/flowrun"
	sendwf "github.com/heraldhq/herald/workflows/send"
)

// publishFlow creates and publishes a workflow; its inApp step's title says which version.
func publishFlow(t *testing.T, d *db.DB, appID int64, identifier, title string) *flow.Service {
	t.Helper()
	s := flow.NewService(d, nil)
	ctx := context.Background()
	body := `{"identifier":"` + identifier + `","name":"n","definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"` + title + `"}}]}}`
	if _, err := s.Get(ctx, appID, identifier); err != nil {
		if _, err := s.Create(ctx, appID, []byte(body)); err != nil {
			t.Fatal(err)
		}
	} else if _, err := s.Update(ctx, appID, identifier, []byte(`{"name":"n","definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"`+title+`"}}]}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Publish(ctx, appID, identifier); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSendWithWorkflowStartsPinnedRuns(t *testing.T) {
	d, appID, a, pub := setup(t)
	a.BatchSize = 2
	publishFlow(t, d, appID, "welcome", "v1")
	req := accept(t, d, appID, `{"notification":{"workflow":{"identifier":"welcome","cancellationKey":"order-1"},"category":"news"},
		"sendTo":{"recipients":["a","b",{"identifier":"c","email":"c@x.test"}]},"data":{"n":1}}`)
	ctx := context.Background()
	res, err := a.DeliverBatch(ctx, sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: req}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 || len(res.Pending) != 1 || res.Pending[0].FlowVersion != 1 {
		t.Fatalf("first slice: %d runs, pending %+v", len(res.Runs), res.Pending)
	}
	// Published again while the send is under way: its other recipients keep version 1.
	publishFlow(t, d, appID, "welcome", "v2")
	rest, err := a.DeliverBatch(ctx, sendwf.DeliverInput{Cursors: res.Pending})
	if err != nil || len(rest.Runs) != 1 || len(rest.Pending) != 0 {
		t.Fatalf("second slice: %+v %v", rest, err)
	}
	run := rest.Runs[0]
	if run.Flow != (flowrun.Ref{Identifier: "welcome", Version: 1}) || run.Recipient.Identifier != "c" || run.CancellationKey != "order-1" || run.RequestID != req.String() || len(run.Definition.Steps) != 0 {
		t.Errorf("run input %+v", run)
	}
	if n := count(t, d, `SELECT count(*) FROM flow_runs WHERE request_id = $1 AND cancellation_key = 'order-1' AND status = 'running'
		AND workflow_id = 'flow/welcome/' || request_id || '/' || user_identifier`, req); n != 3 {
		t.Errorf("%d runs registered", n)
	}
	if n := count(t, d, `SELECT count(*) FROM notifications`) + count(t, d, `SELECT count(*) FROM message_logs`); n != 0 || len(pub.events) != 0 {
		t.Errorf("a workflow send delivered by itself: %d rows", n)
	}
	var status string
	var delivered int
	_ = d.Pool.QueryRow(ctx, `SELECT status, delivered_count FROM notification_requests WHERE id = $1`, req).Scan(&status, &delivered)
	if status != "completed" || delivered != 3 {
		t.Errorf("request %s, %d handed over", status, delivered)
	}

	// The run loads the pinned version, the data and the profile.
	f := &Flows{Runs: &flow.Runs{DB: d}}
	loaded, err := f.LoadRun(ctx, flowrun.LoadRunInput{AppID: appID, RequestID: req.String(), Flow: run.Flow, UserID: run.Recipient.UserID,
		WorkflowID: flowrun.WorkflowID("welcome", req.String(), "c")})
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Definition.Steps) != 1 || !strings.Contains(string(loaded.Definition.Steps[0].Content), "v1") ||
		loaded.Data["n"] != 1.0 || loaded.Category != "news" || loaded.Profile["email"] != "c@x.test" || loaded.Cancelled {
		t.Errorf("loaded %+v", loaded)
	}
	other := dbOtherApp(t, d)
	if _, err := f.LoadRun(ctx, flowrun.LoadRunInput{AppID: other, RequestID: req.String(), Flow: run.Flow, UserID: run.Recipient.UserID}); err == nil || !isNonRetryable(err) {
		t.Errorf("another app loaded our workflow: %v", err)
	}
	if err := f.FinishRun(ctx, flowrun.FinishRunInput{AppID: appID, WorkflowID: flowrun.WorkflowID("welcome", req.String(), "a"), Outcome: "completed"}); err != nil {
		t.Fatal(err)
	}
	out, err := flow.NewService(d, nil).CancelByKey(ctx, appID, []byte(`{"cancellationKey":"order-1"}`), nopCanceler{}, slog.New(slog.DiscardHandler))
	if err != nil || out.Cancelled != 2 {
		t.Errorf("cancel: %+v %v (a finished run is not cancelled)", out, err)
	}
	loaded, _ = f.LoadRun(ctx, flowrun.LoadRunInput{AppID: appID, RequestID: req.String(), Flow: run.Flow, UserID: run.Recipient.UserID,
		WorkflowID: flowrun.WorkflowID("welcome", req.String(), "c")})
	if !loaded.Cancelled {
		t.Error("a run cancelled before it started must know it")
	}
}

type nopCanceler struct{}

func (nopCanceler) CancelWorkflow(context.Context, string, string) error { return nil }

func TestSendWithUnavailableWorkflowFails(t *testing.T) {
	d, appID, a, _ := setup(t)
	fs := flow.NewService(d, nil)
	for _, id := range []string{"draft", "shelved"} {
		if _, err := fs.Create(context.Background(), appID, []byte(`{"identifier":"`+id+`","name":"d","definition":{"steps":[{"id":"x","type":"inApp","content":{"title":"t"}}]}}`)); err != nil {
			t.Fatal(err)
		}
	}
	// Published, then archived: it takes no sends.
	if _, err := fs.Publish(context.Background(), appID, "shelved"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Patch(context.Background(), appID, "shelved", []byte(`{"archived":true}`)); err != nil {
		t.Fatal(err)
	}
	for wf, want := range map[string]string{"nope": `workflow "nope" does not exist`, "draft": `workflow "draft" has no published version`,
		"shelved": `workflow "shelved" is archived`} {
		// The accept refuses these sends (422); a request can still meet them at delivery
		// when its workflow went after the accept.
		if _, err := send.NewService(d, nil).Accept(context.Background(), appID, []byte(`{"notification":{"workflow":{"identifier":"`+wf+`"}},"sendTo":{"recipients":["a"]}}`), ""); herald.ErrorCode(err) != herald.EUNPROCESSABLE {
			t.Errorf("%s: accept answered %v, want a 422", wf, err)
		}
		req := store(t, d, appID, `{"notification":{"workflow":{"identifier":"`+wf+`"}},"sendTo":{"recipients":["a","b"]}}`)
		res, err := a.DeliverBatch(context.Background(), sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: req}}})
		if err != nil || len(res.Runs) != 0 || len(res.Pending) != 0 {
			t.Fatalf("%s: %+v %v", wf, res, err)
		}
		var status, reason string
		_ = d.Pool.QueryRow(context.Background(), `SELECT status, coalesce(error, '') FROM notification_requests WHERE id = $1`, req).Scan(&status, &reason)
		if status != "failed" || reason != want {
			t.Errorf("%s: request %s %q", wf, status, reason)
		}
		if n := count(t, d, `SELECT count(*) FROM message_logs WHERE request_id = $1 AND channel = 'workflow' AND status = 'failed' AND error = $2`, req, want); n != 2 {
			t.Errorf("%s: %d failed log rows", wf, n)
		}
	}
}

func TestTopicSubscribersRunWithTheirChannels(t *testing.T) {
	d, appID, a, _ := setup(t)
	publishFlow(t, d, appID, "news", "hi")
	exec(t, d, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, 'news', 'News')`, appID)
	exec(t, d, `INSERT INTO users (app_id, identifier) VALUES ($1, 'sub-a'), ($1, 'sub-b')`, appID)
	exec(t, d, `INSERT INTO topic_subscriptions (topic_id, user_id, channels)
		SELECT t.id, u.id, CASE u.identifier WHEN 'sub-a' THEN '{email}'::text[] ELSE '{}'::text[] END
		FROM topics t, users u WHERE t.app_id = $1 AND u.app_id = $1`, appID)
	req := accept(t, d, appID, `{"notification":{"workflow":{"identifier":"news"}},"sendTo":{"topics":["news"]}}`)
	res, err := a.DeliverBatch(context.Background(), sendwf.DeliverInput{Cursors: []sendwf.Cursor{{RequestID: req}}})
	if err != nil || len(res.Runs) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	got := map[string][]string{}
	for _, r := range res.Runs {
		got[r.Recipient.Identifier] = r.Recipient.Channels
	}
	if len(got["sub-a"]) != 1 || got["sub-a"][0] != "email" || len(got["sub-b"]) != 0 {
		t.Errorf("runs' channels %v", got)
	}
}
