package integration

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/send"
)

// listRuns returns the workflow ids a visibility query finds, sorted.
func listRuns(t *testing.T, e *stacktest.Env, query string) []string {
	t.Helper()
	res, err := e.Stack.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{Query: query})
	if err != nil {
		t.Fatalf("list %q: %v", query, err)
	}
	var ids []string
	for _, x := range res.Executions {
		ids = append(ids, x.Execution.WorkflowId)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// waitForRuns waits until the query, narrowed to the test stack's task queue (the tests of a
// package share one dev server, and app ids repeat across their databases), finds exactly
// want; visibility lags a little behind.
func waitForRuns(t *testing.T, e *stacktest.Env, query string, want ...string) {
	t.Helper()
	slices.Sort(want)
	query = "(" + query + ") AND TaskQueue = '" + e.Cfg.TaskQueue + "'"
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := listRuns(t, e, query)
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s finds %v, want %v", query, got, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Issue 16: operators find the runs of a send in the Temporal Web UI or CLI by app, by
// request (a packed run by any of its requests), and a workflow run by workflow and
// recipient; each run has a summary.
func TestOperatorsFindRunsBySearchAttributes(t *testing.T) {
	// A long pack window packs sends accepted together into one run.
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) { c.RelayPackWindow = time.Second }})
	publishWorkflow(t, e, "welcome", `{"steps":[{"id":"hi","type":"inApp","content":{"title":"Welcome"}}]}`)
	first := sendNotification(t, e, `{"notification":{"title":"one"},"sendTo":{"recipients":["ann"]}}`)
	second := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"welcome"}},"sendTo":{"recipients":["bob"]}}`)
	pack := send.WorkflowID([]uuid.UUID{uuid.MustParse(first), uuid.MustParse(second)})
	run := flowrun.WorkflowID("welcome", second, "bob")
	waitForRun(t, e, second, "bob", "completed")

	// Another app's send: never listed under this app.
	other := e.NewApp("other")
	res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"theirs"},"sendTo":{"recipients":["ann"]}}`,
		stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": other.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": other.APISecret})
	if res.Status != 202 {
		t.Fatalf("other app's send: %d %s", res.Status, res.Body)
	}
	theirs := send.WorkflowID([]uuid.UUID{uuid.MustParse(res.Map(t)["requestId"].(string))})

	app := fmt.Sprint(e.App.AppID)
	waitForRuns(t, e, "HeraldAppId = '"+app+"'", pack, run)
	waitForRuns(t, e, "HeraldAppId = '"+fmt.Sprint(other.AppID)+"'", theirs)
	waitForRuns(t, e, "HeraldRequestId = '"+first+"'", pack)
	waitForRuns(t, e, "HeraldRequestId = '"+second+"'", pack, run)
	waitForRuns(t, e, "HeraldWorkflow = 'welcome' AND HeraldRecipient = 'bob'", run)
	waitForRuns(t, e, "HeraldRequestId = '"+second+"' AND WorkflowType = 'Flow'", run)

	for id, want := range map[string]string{pack: "Pack of 2 sends", run: "Workflow welcome for bob", theirs: "Send "} {
		d, err := e.Stack.Temporal.DescribeWorkflow(context.Background(), id, "")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := d.GetStaticSummary(); err != nil || !strings.HasPrefix(got, want) {
			t.Errorf("%s: summary %q (%v), want %q…", id, got, err, want)
		}
	}

	// Registering again (another process starting, a restart) is a no-op.
	if err := e.Stack.EnsureSearchAttributes(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Issue 15 item 11: inbox state signals go only to runs that wait for them, and a run
// drains those its wait did not consume, so the worker never logs "Workflow has unhandled
// signals".
func TestInboxSignalsLeaveNoUnhandledSignals(t *testing.T) {
	var logs lockedBuffer
	e := stacktest.New(t, stacktest.Options{Temporal: true, Log: &logs})
	// No waitForRead: reading the note during the pause must not signal the run.
	publishWorkflow(t, e, "plain", `{"steps":[
		{"id":"note","type":"inApp","content":{"title":"Plain"},"next":"pause"},
		{"id":"pause","type":"delay","duration":"2s","next":"bye"},
		{"id":"bye","type":"inApp","content":{"title":"Bye"}}]}`)
	// A wait, then a pause: a click after the read reaches the run during the pause.
	publishWorkflow(t, e, "asking", `{"steps":[
		{"id":"ask","type":"inApp","content":{"title":"Ask"},"next":"wait"},
		{"id":"wait","type":"waitForRead","step":"ask","timeout":"10m","next":"pause"},
		{"id":"pause","type":"delay","duration":"4s","next":"bye"},
		{"id":"bye","type":"inApp","content":{"title":"Bye"}}]}`)
	plain := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"plain"}},"sendTo":{"recipients":["ann"]}}`)
	asking := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"asking"}},"sendTo":{"recipients":["bob"]}}`)
	noteOf := func(user, title string) int64 {
		var id int64
		e.Eventually(60*time.Second, user+"'s "+title, func() bool {
			for _, n := range inbox(t, e, user).Data {
				if n.Title == title {
					id = n.ID
				}
			}
			return id != 0
		})
		return id
	}
	act := func(user, path string) {
		t.Helper()
		if res := e.Do("POST", path, nil, e.UserHeaders(user)); res.Status >= 300 {
			t.Fatalf("%s: %d %s", path, res.Status, res.Body)
		}
	}
	note := noteOf("ann", "Plain")
	act("ann", fmt.Sprintf("/v3/notifications/%d/reads", note))
	ask := noteOf("bob", "Ask")
	act("bob", fmt.Sprintf("/v3/notifications/%d/reads", ask))
	e.Eventually(60*time.Second, "bob's wait to end", func() bool { return slices.Contains(flowLog(t, e, "bob"), "wait:waited") })
	act("bob", fmt.Sprintf("/v3/notifications/%d/click", ask))
	waitForRun(t, e, plain, "ann", "completed")
	waitForRun(t, e, asking, "bob", "completed")

	signals := func(workflowID string) int {
		it := e.Stack.Temporal.GetWorkflowHistory(context.Background(), workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		n := 0
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED {
				n++
			}
		}
		return n
	}
	if n := signals(flowrun.WorkflowID("plain", plain, "ann")); n != 0 {
		t.Errorf("a run with no waitForRead step got %d signals", n)
	}
	// The click's signal may land after bob's run ended (then Temporal refuses it); the
	// run got the read's signal and possibly the click's.
	if n := signals(flowrun.WorkflowID("asking", asking, "bob")); n < 1 {
		t.Errorf("the waiting run got %d signals", n)
	}
	if strings.Contains(logs.String(), "unhandled signals") {
		t.Errorf("the worker logged unhandled signals:\n%s", grepLines(logs.String(), "unhandled signals"))
	}
}

func grepLines(s, substr string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, substr) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// An in-memory dev server restarted behind a running Herald has lost the search attributes
// registered at start-up: the relay registers them again when a start is refused, and the
// send goes out.
func TestSendsStartAfterTheNamespaceLostItsSearchAttributes(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts a Temporal server")
	}
	srv := stacktest.StartTemporal(t, "")
	addr := srv.Address
	e := stacktest.New(t, stacktest.Options{TemporalAddress: addr})
	if err := e.Stack.EnsureSearchAttributes(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv.Kill()
	stacktest.StartTemporal(t, addr)
	id := sendNotification(t, e, `{"notification":{"title":"after the restart"},"sendTo":{"recipients":["ann"]}}`)
	e.Eventually(60*time.Second, "the send delivered", func() bool { return len(inbox(t, e, "ann").Data) == 1 })
	waitForRuns(t, e, "HeraldRequestId = '"+id+"'", send.WorkflowID([]uuid.UUID{uuid.MustParse(id)}))
}
