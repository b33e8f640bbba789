package integration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// dbHits searches every text, varchar, json, jsonb, array and bytea column of every table
// of the database for s and returns "table.column" of each column holding it. It reads
// information_schema, so a table added later is searched without being listed.
func dbHits(t *testing.T, e *stacktest.Env, s string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := e.Stack.DB.Pool.Query(ctx, `SELECT table_name, column_name, data_type FROM information_schema.columns
		WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'bytea')
		  AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')
		ORDER BY table_name, column_name`)
	if err != nil {
		t.Fatal(err)
	}
	type col struct{ table, column, typ string }
	var cols []col
	for rows.Next() {
		var c col
		if err := rows.Scan(&c.table, &c.column, &c.typ); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	if len(cols) < 50 {
		t.Fatalf("only %d columns to search: is the schema query right?", len(cols))
	}
	var hits []string
	for _, c := range cols {
		cond := fmt.Sprintf(`strpos(%q::text, $1) > 0`, c.column)
		if c.typ == "bytea" {
			cond = fmt.Sprintf(`position(convert_to($1, 'UTF8') IN %q) > 0`, c.column)
		}
		var n int
		if err := e.Stack.DB.Pool.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM %q WHERE %s`, c.table, cond), s).Scan(&n); err != nil {
			t.Fatalf("search %s.%s: %v", c.table, c.column, err)
		}
		if n > 0 {
			hits = append(hits, fmt.Sprintf("%s.%s (%d rows)", c.table, c.column, n))
		}
	}
	return hits
}

// historyText is a run's whole history as Temporal stores it (every run of the workflow
// id), as JSON followed by every payload's bytes; "" when Temporal has none.
func historyText(t *testing.T, e *stacktest.Env, wf string) string {
	t.Helper()
	it := e.Stack.Temporal.GetWorkflowHistory(context.Background(), wf, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		var nf *serviceerror.NotFound
		if errors.As(err, &nf) {
			return ""
		}
		if err != nil {
			t.Fatalf("history of %s: %v", wf, err)
		}
		h.Events = append(h.Events, ev)
	}
	raw, err := protojson.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw) + "\n" + payloadBytes(t, h)
}

// TestErasureLeavesNoTrace erases a user who received an email and an in-app message (in a
// send shared with another user), has a workflow run waiting, two scheduled sends (one
// alone, one shared), preferences, a device and a topic subscription. Payload encryption
// is off, so the histories hold the address in clear before the erasure (the search is
// shown to see it). Afterwards no column of any table and no history of the user's runs
// holds the address or the identifier; the other user's data is untouched.
func TestErasureLeavesNoTrace(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) { c.Codec.Encrypt = false }})
	mail := smtptest.Start(t)
	smtpInstance(t, e, mail)
	tag := secrets.HexToken(4)
	erin, email := "erin-"+tag, "erin.forget."+tag+"@example.com"
	frank, frankEmail := "frank-"+tag, "frank."+tag+"@example.com"
	ctx := context.Background()

	shared := sendNotification(t, e, `{"notification":{"title":"Hello","message":"Your address is `+email+`"},
		"data":{"contact":"`+email+`"},"override":{"channels":["inApp","email"]},
		"sendTo":{"recipients":[{"identifier":"`+erin+`","email":"`+email+`","name":"Erin Forget"},{"identifier":"`+frank+`","email":"`+frankEmail+`"}]}}`)
	waitForLogs(t, e, shared, erin+"/email", frank+"/email", erin+"/inApp", frank+"/inApp")
	e.Eventually(60*time.Second, "the emails", func() bool { return mail.Count(email) == 1 && mail.Count(frankEmail) == 1 })

	publishWorkflow(t, e, "slow", `{"steps":[{"id":"pause","type":"delay","duration":"1h","next":"hello"},
		{"id":"hello","type":"inApp","content":{"title":"Later {{user.email}}"}}]}`)
	flowReq := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"slow"}},
		"sendTo":{"recipients":[{"identifier":"`+erin+`","email":"`+email+`"}]}}`)
	waitForRun(t, e, flowReq, erin, "running")

	publishWorkflow(t, e, "daily", `{"steps":[{"id":"collect","type":"digest","window":"1h","next":"sum"},
		{"id":"sum","type":"inApp","content":{"title":"{{digest.count}} updates for {{user.email}}"}}]}`)
	digestReq := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"daily"}},"data":{"about":"`+email+`"},
		"sendTo":{"recipients":[{"identifier":"`+erin+`","email":"`+email+`"}]}}`)
	waitForRun(t, e, digestReq, erin, "digested")

	sendAt := time.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	alone := sendNotification(t, e, `{"notification":{"title":"Reminder for `+email+`"},"sendAt":"`+sendAt+`",
		"sendTo":{"recipients":[{"identifier":"`+erin+`","email":"`+email+`"}]}}`)
	both := sendNotification(t, e, `{"notification":{"title":"Reminder"},"sendAt":"`+sendAt+`",
		"sendTo":{"recipients":[{"identifier":"`+erin+`","email":"`+email+`"},{"identifier":"`+frank+`","email":"`+frankEmail+`"}]}}`)
	for _, req := range []string{alone, both} {
		e.Eventually(60*time.Second, "the schedule run of "+req, func() bool {
			d, err := e.Stack.Temporal.DescribeWorkflowExecution(ctx, "schedule/"+req, "")
			return err == nil && d.WorkflowExecutionInfo.Status == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
		})
	}
	sql(t, e, `INSERT INTO channel_preferences (app_id, user_id, channel, enabled) SELECT app_id, id, 'sms', false FROM users WHERE app_id = $1 AND identifier = $2`, e.App.AppID, erin)
	sql(t, e, `INSERT INTO devices (app_id, user_id, device_id, device_type, push_token) SELECT app_id, id, 'phone', 'ios', 'token-of-`+email+`' FROM users WHERE app_id = $1 AND identifier = $2`, e.App.AppID, erin)
	sql(t, e, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, 'news', 'News')`, e.App.AppID)
	sql(t, e, `INSERT INTO topic_subscriptions (topic_id, user_id) SELECT t.id, u.id FROM topics t, users u WHERE t.app_id = $1 AND u.app_id = $1 AND u.identifier = $2`, e.App.AppID, erin)

	// The runs that carried the user, read from the database before it forgets them.
	var workflows []string
	rows, err := e.Stack.DB.Pool.Query(ctx, `SELECT workflow_id FROM notification_requests WHERE app_id = $1 AND workflow_id IS NOT NULL
		UNION SELECT workflow_id FROM flow_runs WHERE app_id = $1
		UNION SELECT 'schedule/' || request_id FROM scheduled_notifications WHERE app_id = $1`, e.App.AppID)
	// … and the digest collector the user's run started (named by visibility only).
	digests, err := e.Stack.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: e.Cfg.TemporalNamespace,
		Query: "WorkflowType = 'FlowDigest' AND TaskQueue = '" + e.Cfg.TaskQueue + "'"})
	if err != nil || len(digests.GetExecutions()) != 1 {
		t.Fatalf("digest collectors: %v %v", digests, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		workflows = append(workflows, id)
	}
	workflows = append(workflows, digests.GetExecutions()[0].GetExecution().GetWorkflowId())
	if len(workflows) < 5 {
		t.Fatalf("runs of the user: %v", workflows)
	}
	// Before: the searches see the user (they are not blind).
	if hits := dbHits(t, e, email); len(hits) < 4 {
		t.Fatalf("before the erasure the address is in only %v", hits)
	}
	seen := 0
	for _, wf := range workflows {
		if strings.Contains(historyText(t, e, wf), email) {
			seen++
		}
	}
	if seen == 0 {
		t.Fatalf("no plain history of %v shows the address: the history search is blind", workflows)
	}

	// Another tenant cannot erase it; then the erasure.
	other := e.NewApp("other tenant")
	if res := e.Do("DELETE", "/v3/users/"+erin, nil, stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": other.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": other.APISecret}); res.Status != 404 {
		t.Fatalf("another app's erasure: %d %s", res.Status, res.Body)
	}
	if res := e.Do("DELETE", "/v3/users/"+erin, nil, nil); res.Status != 401 {
		t.Fatalf("erasure without credentials: %d", res.Status)
	}
	res := e.Do("DELETE", "/v3/users/"+erin, nil, e.AppHeaders())
	if res.Status != 200 {
		t.Fatalf("erasure: %d %s", res.Status, res.Body)
	}
	var out struct{ Erased map[string]int }
	res.JSON(t, &out)
	er := out.Erased
	if er["profile"] != 1 || er["notifications"] != 1 || er["messageLogs"] < 2 || er["preferences"] != 1 || er["devices"] != 1 ||
		er["topicSubscriptions"] != 1 || er["runsCancelled"] != 1 || er["flowRuns"] != 2 || er["requestsRedacted"] != 5 ||
		er["scheduledCancelled"] != 1 || er["othersRedacted"] != 1 || er["workflowHistoriesDeleted"] < 3 || er["workflowHistoriesKept"] != 1 {
		t.Errorf("erased %v", er)
	}
	t.Logf("erased %v", er)

	// After: nothing in any column of any table …
	for _, s := range []string{email, erin, "Erin Forget"} {
		if hits := dbHits(t, e, s); len(hits) > 0 {
			t.Errorf("after the erasure %q is still in %v", s, hits)
		}
	}
	// … nor in any history of the runs that carried the user (deletion is asynchronous).
	for _, wf := range workflows {
		e.Eventually(60*time.Second, "the history of "+wf+" without the address", func() bool {
			return !strings.Contains(historyText(t, e, wf), email)
		})
	}
	// The other user keeps everything; the shared scheduled send still goes to them.
	if n := countRows(t, e, `SELECT count(*) FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.identifier = $1`, frank); n != 1 {
		t.Errorf("frank's inbox: %d", n)
	}
	if n := countRows(t, e, `SELECT count(*) FROM scheduled_notifications WHERE request_id = $1 AND status = 'scheduled'`, both); n != 1 {
		t.Errorf("the shared scheduled send was cancelled")
	}
	if n := countRows(t, e, `SELECT count(*) FROM notification_requests WHERE id = $1 AND payload::text LIKE '%' || $2 || '%' AND recipient_count = 1`, both, frankEmail); n != 1 {
		t.Errorf("the shared scheduled send lost frank")
	}
	if n := countRows(t, e, `SELECT count(*) FROM scheduled_notifications WHERE request_id = $1 AND status = 'cancelled'`, alone); n != 1 {
		t.Errorf("the user's own scheduled send is not cancelled")
	}
	if res := e.Do("DELETE", "/v3/users/"+erin, nil, e.AppHeaders()); res.Status != 404 {
		t.Errorf("second erasure: %d", res.Status)
	}
	if n := countRows(t, e, `SELECT count(*) FROM audit_events WHERE action = 'app_user.erased'`); n != 1 {
		t.Errorf("audit entries: %d", n)
	}
}

// TestRetentionPurge runs the purge the way production does: the worker ensures the
// Temporal Schedule, the test triggers it, and the RetentionPurge run deletes, in batches
// of 100 here, what is older than each app's retention and nothing else. App A shortens
// two retentions; app B keeps the defaults and the same old rows. With
// HERALD_RECORD_RETENTION_HISTORY=<file> the run's history is written to
// workflows/testdata/<file> for the replay tests.
func TestRetentionPurge(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) { c.Retention.Batch = 100 }})
	ctx := context.Background()
	a := e.App.AppID
	other := e.NewApp("defaults")
	var b int64
	if err := e.Stack.DB.Pool.QueryRow(ctx, `SELECT id FROM apps WHERE api_key = $1`, other.APIKey).Scan(&b); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.Retention.Update(ctx, a, []byte(`{"messageLogs": 7, "inboxRead": 30}`)); err != nil {
		t.Fatal(err)
	}
	for _, app := range []int64{a, b} {
		sql(t, e, `INSERT INTO users (app_id, identifier) VALUES ($1, 'u')`, app)
		seed := []string{
			// inbox: read 40 days ago (A: gone, 30 days; B: kept, 90), read 10 days ago, unread 40 days ago (kept: 365)
			`INSERT INTO notifications (app_id, user_id, request_id, source_key, title, created_at, read_at)
			 SELECT $1, u.id, gen_random_uuid(), 'old-read', 'old read', now() - interval '40 days', now() - interval '39 days' FROM users u WHERE u.app_id = $1`,
			`INSERT INTO notifications (app_id, user_id, request_id, source_key, title, created_at, read_at)
			 SELECT $1, u.id, gen_random_uuid(), 'new-read', 'new read', now() - interval '10 days', now() FROM users u WHERE u.app_id = $1`,
			`INSERT INTO notifications (app_id, user_id, request_id, source_key, title, created_at)
			 SELECT $1, u.id, gen_random_uuid(), 'old-unread', 'old unread', now() - interval '40 days' FROM users u WHERE u.app_id = $1`,
			// message logs: 250 sent 10 days ago (A: gone, 7 days, in three batches; B: kept), one 3 days ago, one queued 10 days ago
			`INSERT INTO message_logs (app_id, request_id, user_id, user_identifier, channel, status, idempotency_key, created_at)
			 SELECT $1, gen_random_uuid(), u.id, 'u', 'email', 'sent', 'k' || g, now() - interval '10 days' FROM users u, generate_series(1, 250) g WHERE u.app_id = $1`,
			`INSERT INTO message_logs (app_id, request_id, user_id, user_identifier, channel, status, idempotency_key, created_at)
			 SELECT $1, gen_random_uuid(), u.id, 'u', 'email', 'sent', 'recent', now() - interval '3 days' FROM users u WHERE u.app_id = $1`,
			`INSERT INTO message_logs (app_id, request_id, user_id, user_identifier, channel, status, idempotency_key, created_at)
			 SELECT $1, gen_random_uuid(), u.id, 'u', 'email', 'queued', 'queued', now() - interval '10 days' FROM users u WHERE u.app_id = $1`,
			// flow logs and runs: 100 days old (gone; a running run kept) and 10 days old
			`INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, workflow_id, created_at)
			 VALUES ($1, 'r', 'f', 1, 'u', 'old', 'delay', 'ok', 'w', now() - interval '100 days'), ($1, 'r', 'f', 1, 'u', 'new', 'delay', 'ok', 'w', now() - interval '10 days')`,
			`INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id, status, created_at)
			 VALUES ($1::bigint, gen_random_uuid(), 'f', 'u', 'old-done-' || $1::bigint::text, 'completed', now() - interval '100 days'),
			        ($1::bigint, gen_random_uuid(), 'f', 'u', 'old-running-' || $1::bigint::text, 'running', now() - interval '100 days')`,
			// requests: completed 40 days ago (gone), still being delivered after 40 days (kept), completed 10 days ago with a 2-day-old key (kept, key cleared)
			`INSERT INTO notification_requests (id, app_id, payload, status, created_at) VALUES
			 (gen_random_uuid(), $1, '{"n":"old-done"}', 'completed', now() - interval '40 days'),
			 (gen_random_uuid(), $1, '{"n":"old-waiting"}', 'started', now() - interval '40 days')`,
			`INSERT INTO notification_requests (id, app_id, payload, status, idempotency_key, body_hash, created_at) VALUES
			 (gen_random_uuid(), $1, '{"n":"keyed"}', 'completed', 'key-1', '\x01', now() - interval '2 days'),
			 (gen_random_uuid(), $1, '{"n":"fresh-key"}', 'completed', 'key-2', '\x02', now() - interval '1 hour')`,
		}
		for _, q := range seed {
			sql(t, e, q, app)
		}
	}

	// The worker ensured the schedule at start-up; trigger it now instead of waiting an hour.
	id := "herald-retention/" + e.Cfg.TaskQueue
	h := e.Stack.Temporal.ScheduleClient().GetHandle(ctx, id)
	e.Eventually(60*time.Second, "the retention schedule", func() bool { _, err := h.Describe(ctx); return err == nil })
	if err := h.Trigger(ctx, client.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	var run string
	e.Eventually(60*time.Second, "the triggered purge run", func() bool {
		d, err := h.Describe(ctx)
		if err != nil || len(d.Info.RecentActions) == 0 {
			return false
		}
		run = d.Info.RecentActions[len(d.Info.RecentActions)-1].StartWorkflowResult.WorkflowID
		return true
	})
	var purged map[string]int64
	if err := e.Stack.Temporal.GetWorkflow(ctx, run, "").Get(ctx, &purged); err != nil {
		t.Fatalf("purge run %s: %v", run, err)
	}
	t.Logf("purge run %s: %v", run, purged)
	want := map[string]int64{"inboxRead": 1, "messageLogs": 250, "flowLogs": 4, "requests": 2, "idempotencyKeys": 2}
	for k, v := range want {
		if purged[k] != v {
			t.Errorf("purged %s: %d, want %d (all: %v)", k, purged[k], v, purged)
		}
	}
	count := func(app int64, q string) int { return countRows(t, e, q, app) }
	for _, c := range []struct {
		what  string
		q     string
		wantA int
		wantB int
	}{
		{"inbox items", `SELECT count(*) FROM notifications WHERE app_id = $1`, 2, 3},
		{"old read item", `SELECT count(*) FROM notifications WHERE app_id = $1 AND source_key = 'old-read'`, 0, 1},
		{"message logs", `SELECT count(*) FROM message_logs WHERE app_id = $1`, 2, 252},
		{"queued message", `SELECT count(*) FROM message_logs WHERE app_id = $1 AND status = 'queued'`, 1, 1},
		{"flow logs", `SELECT count(*) FROM flow_logs WHERE app_id = $1`, 1, 1},
		{"running run", `SELECT count(*) FROM flow_runs WHERE app_id = $1 AND status = 'running'`, 1, 1},
		{"finished runs", `SELECT count(*) FROM flow_runs WHERE app_id = $1 AND status <> 'running'`, 0, 0},
		{"requests", `SELECT count(*) FROM notification_requests WHERE app_id = $1`, 3, 3},
		{"waiting old request", `SELECT count(*) FROM notification_requests WHERE app_id = $1 AND payload->>'n' = 'old-waiting'`, 1, 1},
		{"keys left", `SELECT count(*) FROM notification_requests WHERE app_id = $1 AND idempotency_key IS NOT NULL`, 1, 1},
		{"hashes left", `SELECT count(*) FROM notification_requests WHERE app_id = $1 AND body_hash IS NOT NULL`, 1, 1},
	} {
		if got := count(a, c.q); got != c.wantA {
			t.Errorf("app A %s: %d, want %d", c.what, got, c.wantA)
		}
		if got := count(b, c.q); got != c.wantB {
			t.Errorf("app B %s: %d, want %d", c.what, got, c.wantB)
		}
	}
	if name := os.Getenv("HERALD_RECORD_RETENTION_HISTORY"); name != "" {
		it := e.Stack.Temporal.GetWorkflowHistory(ctx, run, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		hist := &historypb.History{}
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			hist.Events = append(hist.Events, ev)
		}
		if err := e.Stack.Codec.DecodeHistory(hist); err != nil {
			t.Fatal(err)
		}
		out, err := protojson.MarshalOptions{Multiline: true, Indent: " "}.Marshal(hist)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("..", "workflows", "testdata", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d events", path, len(hist.Events))
	}
}
