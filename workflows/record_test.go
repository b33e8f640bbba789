package workflows_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/heraldhq/herald/activities"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/pipeline"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	herworker "github.com/heraldhq/herald/worker"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/schedule"
	"github.com/heraldhq/herald/workflows/send"
)

// TestRecordHistories drives every workflow type and the main paths of the flow interpreter
// through the API of a real stack on the Temporal dev server, and writes each run's history
// to testdata/<set>/<scenario>.json for TestReplayHistories. It runs only when asked:
//
//	make record-histories HISTORY_SET=v2   (HERALD_RECORD_HISTORIES=v2 go test ./workflows -run TestRecordHistories)
//
// (the value names the set; see "Workflow versioning" in docs/architecture.md).
func TestRecordHistories(t *testing.T) {
	set := os.Getenv("HERALD_RECORD_HISTORIES")
	if set == "" {
		t.Skip("set HERALD_RECORD_HISTORIES=<set name> to record workflow histories")
	}
	dir := filepath.Join("testdata", set)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &recorder{t: t, dir: dir}

	// Quiet hours (change quiet-hours of the send workflow): an email held until its
	// window ends a few seconds later and then sent, and one held when its run is cancelled.
	// Alone: `HERALD_RECORD_HISTORIES=<set> go test ./workflows -run 'TestRecordHistories/quiet'`.
	t.Run("quiet", func(t *testing.T) {
		e := stacktest.New(t, stacktest.Options{Temporal: true})
		r.e = e
		srv := smtptest.Start(t)
		smtpInstance(t, e, srv)
		quiet := func(user string, end time.Time) {
			t.Helper()
			u := end.UTC()
			body := `{"start":"` + u.Add(-time.Hour).Format("15:04:05") + `","end":"` + u.Format("15:04:05") + `","timezone":"UTC"}`
			if res := e.Do("PUT", "/v3/preferences/quiet-hours", body, e.UserHeaders(user)); res.Status != 200 {
				t.Fatalf("quiet hours: %d %s", res.Status, res.Body)
			}
		}
		quiet("dora", time.Now().Add(4*time.Second))
		held := r.send(`{"notification":{"title":"Later","message":"after the quiet hours"},"override":{"channels":["email","inApp"]},"sendTo":{"recipients":[{"identifier":"dora","email":"dora@example.com"}]}}`)
		r.save("send-quiet-hours-released", send.WorkflowID([]uuid.UUID{uuid.MustParse(held)}), "")
		quiet("eve", time.Now().Add(time.Hour))
		dropped := r.send(`{"notification":{"title":"Never","message":"cancelled while held"},"override":{"channels":["email"]},"sendTo":{"recipients":[{"identifier":"eve","email":"eve@example.com"}]}}`)
		wf := send.WorkflowID([]uuid.UUID{uuid.MustParse(dropped)})
		r.waitStarted(wf)
		r.waitEvent(wf, enumspb.EVENT_TYPE_TIMER_STARTED)
		if err := e.Stack.Temporal.CancelWorkflow(context.Background(), wf, ""); err != nil {
			t.Fatal(err)
		}
		r.save("send-quiet-hours-cancelled", wf, "")

		// The same in a user-defined workflow: an email step held, then sent; one cancelled
		// by its cancellation key while held.
		r.publish("quietflow", `{"steps":[{"id":"note","type":"inApp","content":{"title":"Hi"},"next":"mail"},{"id":"mail","type":"email","content":{"subject":"Hi","text":"later"}}]}`)
		for _, u := range []string{"fay", "gus"} {
			if res := e.Do("PUT", "/v3/users/"+u, `{"email":"`+u+`@example.com"}`, e.AppHeaders()); res.Status != 200 {
				t.Fatalf("user: %d %s", res.Status, res.Body)
			}
		}
		quiet("fay", time.Now().Add(4*time.Second))
		quiet("gus", time.Now().Add(time.Hour))
		fr := r.send(`{"notification":{"workflow":{"identifier":"quietflow","cancellationKey":"q-1"}},"sendTo":{"recipients":["fay","gus"]}}`)
		gus := flowrun.WorkflowID("quietflow", fr, "gus")
		r.waitStarted(gus)
		r.waitEvent(gus, enumspb.EVENT_TYPE_TIMER_STARTED)
		if res := e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"q-1","recipients":["gus"]}`, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("cancel: %d %s", res.Status, res.Body)
		}
		r.save("flow-quiet-hours-released", flowrun.WorkflowID("quietflow", fr, "fay"), "")
		r.save("flow-quiet-hours-cancelled", gus, "")
	})

	// A digest that closes at a time of day in the recipient's time zone (change id
	// digest-time-of-day of the collector): a few seconds ahead, in her zone.
	// Alone: `HERALD_RECORD_HISTORIES=<set> go test ./workflows -run 'TestRecordHistories/digestTime'`.
	t.Run("digestTime", func(t *testing.T) {
		e := stacktest.New(t, stacktest.Options{Temporal: true})
		r.e = e
		if res := e.Do("PUT", "/v3/users/hana", `{"timezone":"Asia/Tokyo"}`, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("user: %d %s", res.Status, res.Body)
		}
		tokyo, _ := time.LoadLocation("Asia/Tokyo")
		at := time.Now().Add(6 * time.Second).In(tokyo).Format("15:04:05")
		r.publish("morning", `{"steps":[
			{"id":"collect","type":"digest","timeOfDay":"`+at+`","timezone":"UTC","next":"note"},
			{"id":"note","type":"inApp","content":{"title":"{{batch.count}} updates"}}]}`)
		d1 := r.send(`{"notification":{"workflow":{"identifier":"morning"}},"sendTo":{"recipients":["hana"]},"data":{"n":1}}`)
		r.send(`{"notification":{"workflow":{"identifier":"morning"}},"sendTo":{"recipients":["hana"]},"data":{"n":2}}`)
		r.save("flow-digest-time-of-day-handoff", flowrun.WorkflowID("morning", d1, "hana"), "")
		r.save("digest-collector-time-of-day", flowrun.DigestWorkflowID(e.App.AppID, "morning", "collect", "hana"), "")
	})

	// A channel on hold (change channel-hold of the send workflow): an SMTP server that
	// accepts connections and never answers trips the instance's breaker, the run holds
	// its email until the cool-down ends, and the server answers by then.
	// Alone: `HERALD_RECORD_HISTORIES=<set> go test ./workflows -run 'TestRecordHistories/channelHold'`.
	t.Run("channelHold", func(t *testing.T) {
		srv, hung, to := r.hungSMTP(t, "held", 30)
		id := r.send(`{"notification":{"title":"Held","message":"while the server hangs"},"override":{"channels":["email"]},"sendTo":{"recipients":[` + strings.Join(to, ",") + `]}}`)
		wf := send.WorkflowID([]uuid.UUID{uuid.MustParse(id)})
		r.waitStarted(wf)
		r.waitEvent(wf, enumspb.EVENT_TYPE_TIMER_STARTED)
		hung.Answer()
		r.save("send-channel-hold", wf, "")
		if n := len(srv.Messages()); n != 30 {
			t.Errorf("%d emails delivered, want 30", n)
		}
	})

	// A channel held from the start (change shared-hold of the send workflow): a first run
	// trips the breaker of an SMTP server that accepts connections and never answers; a
	// second run, sent while it is open, is told so by DeliverBatch and holds its email on a
	// timer without a batch, then sends it once the cool-down ends and the server answers.
	// Alone: `HERALD_RECORD_HISTORIES=<set> go test ./workflows -run 'TestRecordHistories/sharedHold'`.
	t.Run("sharedHold", func(t *testing.T) {
		srv, hung, to := r.hungSMTP(t, "trip", 30)
		first := send.WorkflowID([]uuid.UUID{uuid.MustParse(r.send(`{"notification":{"title":"Trips","message":"the breaker"},"override":{"channels":["email"]},"sendTo":{"recipients":[` + strings.Join(to, ",") + `]}}`))})
		r.waitStarted(first)
		r.waitEvent(first, enumspb.EVENT_TYPE_TIMER_STARTED)
		id := r.send(`{"notification":{"title":"Told","message":"while the breaker is open"},"override":{"channels":["email","inApp"]},"sendTo":{"recipients":[{"identifier":"told","email":"told@example.com"}]}}`)
		wf := send.WorkflowID([]uuid.UUID{uuid.MustParse(id)})
		r.waitStarted(wf)
		r.waitEvent(wf, enumspb.EVENT_TYPE_TIMER_STARTED)
		hung.Answer()
		r.save("send-shared-hold", wf, "")
		told := 0
		for _, m := range srv.Messages() {
			if slices.Contains(m.To, "told@example.com") {
				told++
			}
		}
		if told != 1 {
			t.Errorf("the told run's email delivered %d times, want once", told)
		}
	})

	t.Run("send", func(t *testing.T) {
		e := stacktest.New(t, stacktest.Options{Temporal: true})
		r.e = e
		srv := smtptest.Start(t)
		smtpInstance(t, e, srv)
		in := r.send(`{"notification":{"title":"Hello"},"sendTo":{"recipients":["ann","bob"]}}`)
		r.save("send-inapp", send.WorkflowID([]uuid.UUID{uuid.MustParse(in)}), "")
		mail := r.send(`{"notification":{"title":"Hello","message":"by mail"},"channels":["email","inApp"],"sendTo":{"recipients":[{"identifier":"cat","email":"cat@example.com"}]}}`)
		r.save("send-email", send.WorkflowID([]uuid.UUID{uuid.MustParse(mail)}), "")
		// A send whose workflow is gone by the time it runs fails (FailRequests). The accept
		// refuses a workflow that does not exist, so it is deleted after a scheduled accept.
		r.publish("ghost", `{"steps":[{"id":"hi","type":"inApp","content":{"title":"Hi"}}]}`)
		soon := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
		ghost := r.send(`{"notification":{"workflow":{"identifier":"ghost"}},"sendTo":{"recipients":["ann"]},"sendAt":"` + soon + `"}`)
		if _, err := e.Stack.DB.Pool.Exec(context.Background(), `DELETE FROM flows WHERE app_id = $1 AND identifier = 'ghost'`, e.App.AppID); err != nil {
			t.Fatal(err)
		}
		r.save("send-failed-workflow", send.WorkflowID([]uuid.UUID{uuid.MustParse(ghost)}), "")

		at := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
		later := r.send(`{"notification":{"title":"Later"},"sendTo":{"recipients":["ann"]},"sendAt":"` + at + `"}`)
		r.save("schedule", schedule.WorkflowID(uuid.MustParse(later)), "")
		r.save("schedule-send", send.WorkflowID([]uuid.UUID{uuid.MustParse(later)}), "")
		far := time.Now().Add(300 * 24 * time.Hour).UTC().Format(time.RFC3339Nano)
		dropped := r.send(`{"notification":{"title":"Dropped"},"sendTo":{"recipients":["ann"]},"sendAt":"` + far + `"}`)
		r.waitEvent(schedule.WorkflowID(uuid.MustParse(dropped)), enumspb.EVENT_TYPE_TIMER_STARTED) // cancelled while it sleeps
		list, err := e.Stack.Schedules.List(context.Background(), e.App.AppID, 1, 20, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range list {
			if s.RequestID == dropped {
				if err := e.Stack.Schedules.Cancel(context.Background(), e.App.AppID, s.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		r.save("schedule-cancelled", schedule.WorkflowID(uuid.MustParse(dropped)), "")
	})

	t.Run("packed", func(t *testing.T) {
		// A long pack window gathers the two sends into one run sends/<first>.
		e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) { c.RelayPackWindow = time.Second }})
		r.e = e
		a := r.send(`{"notification":{"title":"One"},"sendTo":{"recipients":["ann"]}}`)
		r.send(`{"notification":{"title":"Two"},"sendTo":{"recipients":["bob"]}}`)
		var wf string
		e.Eventually(30*time.Second, "the pack's workflow id", func() bool {
			_ = e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT coalesce(workflow_id, '') FROM notification_requests WHERE id = $1`, a).Scan(&wf)
			return wf != ""
		})
		if !strings.HasPrefix(wf, "sends/") {
			t.Fatalf("the two sends were not packed: %s", wf)
		}
		r.save("send-packed", wf, "")
	})

	t.Run("continue-as-new", func(t *testing.T) {
		// One recipient per DeliverBatch: 201 recipients take more batches than one run
		// does (200), so the run continues as new. The stack's own worker and relay stay off;
		// this test runs them with the small batch.
		r.e = smallBatches(t, 1)
		var users []string
		for i := range 201 {
			users = append(users, fmt.Sprintf("%q", fmt.Sprintf("u%03d", i)))
		}
		id := r.send(`{"notification":{"title":"Many"},"sendTo":{"recipients":[` + strings.Join(users, ",") + `]}}`)
		wf := send.WorkflowID([]uuid.UUID{uuid.MustParse(id)})
		r.waitClosed(wf, "")
		first := r.firstRun(wf)
		r.save("send-continue-as-new", wf, first)
	})

	// A broadcast's inbox rows before its external batches (change external-after-inapp of
	// the send workflow): six recipients with in-app and email, two per DeliverBatch, so
	// the run writes its three slices' inbox rows before it starts its email batch.
	// Alone: `HERALD_RECORD_HISTORIES=<set> go test ./workflows -run 'TestRecordHistories/externalAfterInApp'`.
	t.Run("externalAfterInApp", func(t *testing.T) {
		e := smallBatches(t, 2)
		r.e = e
		srv := smtptest.Start(t)
		smtpInstance(t, e, srv)
		var to []string
		for i := range 6 {
			to = append(to, fmt.Sprintf(`{"identifier":"m%d","email":"m%d@example.com"}`, i, i))
		}
		id := r.send(`{"notification":{"title":"Slices","message":"inbox first"},"override":{"channels":["inApp","email"]},"sendTo":{"recipients":[` + strings.Join(to, ",") + `]}}`)
		wf := send.WorkflowID([]uuid.UUID{uuid.MustParse(id)})
		r.waitClosed(wf, "")
		r.save("send-external-after-inapp", wf, "")
		if n := len(srv.Messages()); n != 6 {
			t.Errorf("%d emails delivered, want 6", n)
		}
	})

	t.Run("flow", func(t *testing.T) {
		fetched := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"plan":"pro"}`))
		}))
		t.Cleanup(fetched.Close)
		e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) { c.FetchAllowedHosts = []string{"127.0.0.1"} }})
		r.e = e
		srv := smtptest.Start(t)
		smtpInstance(t, e, srv)

		r.publish("onboarding", `{"steps":[
			{"id":"pause","type":"delay","duration":"1s","next":"hello"},
			{"id":"hello","type":"inApp","content":{"title":"Hello {{user.identifier}}"},"next":"check"},
			{"id":"check","type":"branch","conditions":[
				{"if":{"and":[{"step":"hello","is":"notRead"},{"field":"profile.plan","op":"eq","value":"pro"}]},"next":"mail"}]},
			{"id":"mail","type":"email","content":{"subject":"Welcome","text":"Hi {{user.identifier}}"}}]}`)
		req := r.send(`{"notification":{"workflow":{"identifier":"onboarding"}},"sendTo":{"recipients":[{"identifier":"ann","email":"ann@example.com","plan":"pro"}]}}`)
		r.save("flow-send", send.WorkflowID([]uuid.UUID{uuid.MustParse(req)}), "")
		r.save("flow-delay-branch-email", flowrun.WorkflowID("onboarding", req, "ann"), "")

		r.publish("approval", `{"steps":[
			{"id":"ask","type":"inApp","content":{"title":"Please approve"},"next":"wait"},
			{"id":"wait","type":"waitForRead","step":"ask","timeout":"3s","next":"thanks","timeoutNext":"remind"},
			{"id":"thanks","type":"inApp","content":{"title":"Thanks"}},
			{"id":"remind","type":"inApp","content":{"title":"Still waiting"}}]}`)
		read := r.send(`{"notification":{"workflow":{"identifier":"approval"}},"sendTo":{"recipients":["reader"]}}`)
		var note int64
		e.Eventually(60*time.Second, "the question in the inbox", func() bool {
			_ = e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT id FROM notifications WHERE request_id = $1`, read).Scan(&note)
			return note != 0
		})
		r.waitFlowLog(read, "ask:sent")
		if res := e.Do("POST", fmt.Sprintf("/v3/notifications/%d/reads", note), nil, e.UserHeaders("reader")); res.Status >= 300 {
			t.Fatalf("read: %d %s", res.Status, res.Body)
		}
		r.save("flow-wait-read", flowrun.WorkflowID("approval", read, "reader"), "")
		timeout := r.send(`{"notification":{"workflow":{"identifier":"approval"}},"sendTo":{"recipients":["ignorer"]}}`)
		r.save("flow-wait-timeout", flowrun.WorkflowID("approval", timeout, "ignorer"), "")

		r.publish("enrich", `{"steps":[
			{"id":"load","type":"fetch","url":"`+fetched.URL+`/users/{{user.identifier}}","resultKey":"account","next":"note"},
			{"id":"note","type":"inApp","content":{"title":"Plan {{data.account.plan}}"}}]}`)
		fr := r.send(`{"notification":{"workflow":{"identifier":"enrich"}},"sendTo":{"recipients":["ann"]}}`)
		r.save("flow-fetch", flowrun.WorkflowID("enrich", fr, "ann"), "")
		r.publish("enrich-broken", `{"steps":[
			{"id":"load","type":"fetch","url":"http://127.0.0.1:1/nothing","timeout":"1s","onError":"sorry"},
			{"id":"sorry","type":"inApp","content":{"title":"No data"}}]}`)
		fb := r.send(`{"notification":{"workflow":{"identifier":"enrich-broken"}},"sendTo":{"recipients":["ann"]}}`)
		r.save("flow-fetch-error", flowrun.WorkflowID("enrich-broken", fb, "ann"), "")

		r.publish("limited", `{"steps":[
			{"id":"gate","type":"throttle","limit":1,"window":"1h","next":"note"},
			{"id":"note","type":"inApp","content":{"title":"Limited"}}]}`)
		t1 := r.send(`{"notification":{"workflow":{"identifier":"limited"}},"sendTo":{"recipients":["ann"]}}`)
		r.save("flow-throttle-pass", flowrun.WorkflowID("limited", t1, "ann"), "")
		t2 := r.send(`{"notification":{"workflow":{"identifier":"limited"}},"sendTo":{"recipients":["ann"]}}`)
		r.save("flow-throttle-stop", flowrun.WorkflowID("limited", t2, "ann"), "")

		r.publish("comments", `{"steps":[
			{"id":"collect","type":"digest","count":2,"window":"1m","next":"note"},
			{"id":"note","type":"inApp","content":{"title":"{{batch.count}} new comments"}}]}`)
		d1 := r.send(`{"notification":{"workflow":{"identifier":"comments"}},"sendTo":{"recipients":["ann"]},"data":{"c":"one"}}`)
		r.save("flow-digest-handoff", flowrun.WorkflowID("comments", d1, "ann"), "")
		r.send(`{"notification":{"workflow":{"identifier":"comments"}},"sendTo":{"recipients":["ann"]},"data":{"c":"two"}}`)
		r.save("digest-collector", flowrun.DigestWorkflowID(e.App.AppID, "comments", "collect", "ann"), "")

		// A trigger that arrives while the collector walks the steps after its digest: the
		// collector continues as new with it (change id digest-late-triggers).
		r.publish("comments-slow", `{"steps":[
			{"id":"collect","type":"digest","count":2,"window":"1m","next":"pause"},
			{"id":"pause","type":"delay","duration":"3s","next":"note"},
			{"id":"note","type":"inApp","content":{"title":"{{batch.count}} new comments"}}]}`)
		r.send(`{"notification":{"workflow":{"identifier":"comments-slow"}},"sendTo":{"recipients":["ann"]},"data":{"c":"one"}}`)
		ds := r.send(`{"notification":{"workflow":{"identifier":"comments-slow"}},"sendTo":{"recipients":["ann"]},"data":{"c":"two"}}`)
		r.waitFlowLog(ds, "collect:digested")
		r.send(`{"notification":{"workflow":{"identifier":"comments-slow"}},"sendTo":{"recipients":["ann"]},"data":{"c":"three"}}`)
		slow := flowrun.DigestWorkflowID(e.App.AppID, "comments-slow", "collect", "ann")
		r.waitContinued(slow)
		r.save("digest-collector-late", slow, r.firstRun(slow))

		r.publish("reminder", `{"steps":[
			{"id":"first","type":"inApp","content":{"title":"first"},"next":"pause"},
			{"id":"pause","type":"delay","duration":"1h","next":"second"},
			{"id":"second","type":"inApp","content":{"title":"second"}}]}`)
		cr := r.send(`{"notification":{"workflow":{"identifier":"reminder","cancellationKey":"order-7"}},"sendTo":{"recipients":["ann"]}}`)
		r.waitFlowLog(cr, "first:sent")
		if res := e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"order-7"}`, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("cancel: %d %s", res.Status, res.Body)
		}
		r.save("flow-cancel", flowrun.WorkflowID("reminder", cr, "ann"), "")

		r.publish("daily", `{"steps":[{"id":"note","type":"inApp","content":{"title":"Daily"}}]}`)
		res := e.Do("POST", "/v3/workflows/schedules", `{"workflow":"daily","cron":"0 9 * * *","timezone":"Europe/Berlin","sendTo":{"recipients":["ann"]}}`, e.AppHeaders())
		if res.Status != 201 {
			t.Fatalf("create schedule: %d %s", res.Status, res.Body)
		}
		var created struct {
			ID         int64
			ScheduleID string
		}
		res.JSON(t, &created)
		defer e.Do("DELETE", fmt.Sprintf("/v3/workflows/schedules/%d", created.ID), nil, e.AppHeaders())
		ctx := context.Background()
		if err := e.Stack.Temporal.ScheduleClient().GetHandle(ctx, created.ScheduleID).Trigger(ctx, client.ScheduleTriggerOptions{}); err != nil {
			t.Fatal(err)
		}
		var tick string
		e.Eventually(60*time.Second, "the recurring run", func() bool {
			d, err := e.Stack.Temporal.ScheduleClient().GetHandle(ctx, created.ScheduleID).Describe(ctx)
			if err == nil && len(d.Info.RecentActions) > 0 {
				tick = d.Info.RecentActions[0].StartWorkflowResult.WorkflowID
			}
			return tick != ""
		})
		r.save("flow-recurring", tick, "")
	})
}

// recorder writes histories of runs of one stack.
type recorder struct {
	t   *testing.T
	e   *stacktest.Env
	dir string
}

func (r *recorder) send(body string) string {
	r.t.Helper()
	res := r.e.Do("POST", "/v3/notifications", body, r.e.AppHeaders())
	if res.Status != 202 {
		r.t.Fatalf("send: %d %s", res.Status, res.Body)
	}
	return res.Map(r.t)["requestId"].(string)
}

func (r *recorder) publish(identifier, definition string) {
	r.t.Helper()
	ctx := context.Background()
	if _, err := r.e.Stack.Flows.Create(ctx, r.e.App.AppID, []byte(`{"identifier":"`+identifier+`","name":"recorded","definition":`+definition+`}`)); err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.e.Stack.Flows.Publish(ctx, r.e.App.AppID, identifier); err != nil {
		r.t.Fatal(err)
	}
}

func (r *recorder) waitFlowLog(requestID, line string) {
	r.t.Helper()
	r.e.Eventually(60*time.Second, "workflow log "+line, func() bool {
		var n int
		_ = r.e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM flow_logs WHERE request_id = $1 AND step_id || ':' || outcome = $2`, requestID, line).Scan(&n)
		return n > 0
	})
}

func (r *recorder) waitStarted(workflowID string) {
	r.t.Helper()
	r.e.Eventually(60*time.Second, workflowID+" started", func() bool {
		_, err := r.e.Stack.Temporal.DescribeWorkflowExecution(context.Background(), workflowID, "")
		return err == nil
	})
}

// waitEvent waits until the run's history has an event of the type.
func (r *recorder) waitEvent(workflowID string, typ enumspb.EventType) {
	r.t.Helper()
	r.e.Eventually(60*time.Second, fmt.Sprintf("%s in %s", typ, workflowID), func() bool {
		it := r.e.Stack.Temporal.GetWorkflowHistory(context.Background(), workflowID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				return false
			}
			if ev.GetEventType() == typ {
				return true
			}
		}
		return false
	})
}

// waitClosed waits until the run is closed.
func (r *recorder) waitClosed(workflowID, runID string) {
	r.t.Helper()
	r.e.Eventually(120*time.Second, workflowID+" closed", func() bool {
		d, err := r.e.Stack.Temporal.DescribeWorkflowExecution(context.Background(), workflowID, runID)
		return err == nil && d.WorkflowExecutionInfo.Status != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
	})
}

// waitContinued waits until a run of the workflow has continued as new (visibility is
// eventually consistent).
func (r *recorder) waitContinued(workflowID string) {
	r.t.Helper()
	r.e.Eventually(60*time.Second, workflowID+" continued as new", func() bool {
		res, err := r.e.Stack.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
			Query: fmt.Sprintf("WorkflowId = '%s' AND ExecutionStatus = 'ContinuedAsNew'", workflowID),
		})
		return err == nil && len(res.Executions) > 0
	})
}

// firstRun is the run id of the first run of a chain continued as new.
func (r *recorder) firstRun(workflowID string) string {
	r.t.Helper()
	res, err := r.e.Stack.Temporal.ListWorkflow(context.Background(), &workflowservice.ListWorkflowExecutionsRequest{
		Query: fmt.Sprintf("WorkflowId = '%s' AND ExecutionStatus = 'ContinuedAsNew'", workflowID),
	})
	if err != nil {
		r.t.Fatal(err)
	}
	if len(res.Executions) == 0 {
		r.t.Fatalf("%s did not continue as new", workflowID)
	}
	return res.Executions[len(res.Executions)-1].Execution.RunId
}

// save waits for the run to close and writes its history, its payloads decoded, as the
// CLI's `temporal workflow show --output json` does through the codec server.
func (r *recorder) save(name, workflowID, runID string) {
	r.t.Helper()
	r.waitStarted(workflowID)
	r.waitClosed(workflowID, runID)
	it := r.e.Stack.Temporal.GetWorkflowHistory(context.Background(), workflowID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			r.t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	// Stored decoded (the stack's key is random): the replay tests encrypt them themselves.
	if err := r.e.Stack.Codec.DecodeHistory(h); err != nil {
		r.t.Fatal(err)
	}
	b, err := protojson.MarshalOptions{Multiline: true, Indent: " "}.Marshal(h)
	if err != nil {
		r.t.Fatal(err)
	}
	path := filepath.Join(r.dir, name+".json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.t.Logf("%s: %s, %d events, %d bytes", path, workflowID, len(h.Events), len(b))
}

// hungSMTP starts a stack whose app's email instance is an SMTP server that accepts
// connections and never answers (1 s timeouts, so its breaker trips within seconds), and
// returns the server, its hung face and n recipients named prefix-<i>, as JSON.
func (r *recorder) hungSMTP(t *testing.T, prefix string, n int) (*smtptest.Server, *smtptest.Hung, []string) {
	t.Helper()
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	r.e = e
	srv := smtptest.Start(t)
	hung := srv.Hang(t)
	cfg, _ := json.Marshal(map[string]any{"host": hung.Host, "port": hung.Port, "security": "none", "from": "noreply@herald.test", "timeoutSeconds": 1})
	if _, err := e.Stack.Channels.CreateInstance(context.Background(), e.App.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "hung smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	var to []string
	for i := range n {
		to = append(to, fmt.Sprintf(`{"identifier":"%s-%d","email":"%s-%d@example.com"}`, prefix, i, prefix, i))
	}
	return srv, hung, to
}

func smtpInstance(t *testing.T, e *stacktest.Env, srv *smtptest.Server) {
	t.Helper()
	cfg, _ := json.Marshal(map[string]any{"host": srv.Host, "port": srv.Port, "security": "none", "from": "noreply@herald.test"})
	if _, err := e.Stack.Channels.CreateInstance(context.Background(), e.App.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "test smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
}

// smallBatches starts a stack on the shared Temporal dev server whose own worker and relay
// stay off, and runs them here with DeliverBatch resolving batchSize recipients a call, so
// a send of a few recipients takes several slices.
func smallBatches(t *testing.T, batchSize int) *stacktest.Env {
	addr := stacktest.SharedTemporal(t).Address
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.TemporalAddress = addr }})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w := herworker.New(e.Stack.Temporal, e.Cfg.TaskQueue, herworker.Activities{
		Pipeline:  &activities.Pipeline{Service: activities.NewService(&pipeline.Service{DB: e.Stack.DB, Publisher: e.Stack.Events, Channels: e.Stack.Channels, Templates: e.Stack.Templates, BatchSize: batchSize, Log: e.Stack.Log})},
		Schedules: &activities.Schedules{Scheduled: e.Stack.Schedules},
	}, herworker.Options{})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	go func() { _ = e.Stack.RunRelay(ctx) }()
	return e
}
