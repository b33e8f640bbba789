package integration

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
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
	if len(workflows) < 4 {
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
		er["topicSubscriptions"] != 1 || er["runsCancelled"] != 1 || er["flowRuns"] != 1 || er["requestsRedacted"] != 4 ||
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
