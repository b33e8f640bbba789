package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"google.golang.org/protobuf/proto"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/send"
)

// setQuietHours gives a user quiet hours that started an hour ago and end at end, in the
// time zone tz (HH:MM:SS: a window may end on any second), through /v3.
func setQuietHours(t *testing.T, e *stacktest.Env, user, tz string, end time.Time) {
	t.Helper()
	loc, err := time.LoadLocation(tz)
	if err != nil {
		t.Fatal(err)
	}
	local := end.In(loc)
	body := fmt.Sprintf(`{"start":%q,"end":%q,"timezone":%q}`, local.Add(-time.Hour).Format("15:04:05"), local.Format("15:04:05"), tz)
	if res := e.Do("PUT", "/v3/preferences/quiet-hours", body, e.UserHeaders(user)); res.Status != 200 {
		t.Fatalf("quiet hours of %s: %d %s", user, res.Status, res.Body)
	}
}

// waitForStatus waits until a log row reaches status.
func waitForStatus(t *testing.T, e *stacktest.Env, requestID, key, status string, within time.Duration) logEntry {
	t.Helper()
	var l logEntry
	e.Eventually(within, key+" "+status, func() bool {
		l = messageLogs(t, e, requestID)[key]
		return l.Status == status
	})
	return l
}

// sentAt reads when a log row was sent.
func sentAt(t *testing.T, e *stacktest.Env, requestID, user, channel string) time.Time {
	t.Helper()
	var at time.Time
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT sent_at FROM message_logs WHERE request_id = $1 AND user_identifier = $2 AND channel = $3`,
		requestID, user, channel).Scan(&at); err != nil {
		t.Fatal(err)
	}
	return at
}

// TestQuietHoursHoldEmailAndReleaseWithRealSends: through the real worker, Temporal and
// SMTP, a user inside her quiet hours gets the in-app item at once while the email is held
// (status held, the reason names the end in her time zone) and sent, with its original
// content, when the window ends; a critical send ignores quiet hours.
func TestQuietHoursHoldEmailAndReleaseWithRealSends(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	for _, c := range []string{`{"identifier":"news","name":"News"}`, `{"identifier":"security","name":"Security","critical":true}`} {
		if res := e.Do("POST", "/v3/categories", c, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("category: %d %s", res.Status, res.Body)
		}
	}
	for _, u := range []string{"ann", "carol"} {
		if res := e.Do("PUT", "/v3/users/"+u, `{"email":"`+u+`@example.com"}`, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("user: %d %s", res.Status, res.Body)
		}
	}
	annEnd := time.Now().Add(8 * time.Second).Truncate(time.Second)
	setQuietHours(t, e, "ann", "Asia/Kolkata", annEnd)
	setQuietHours(t, e, "carol", "America/New_York", time.Now().Add(time.Hour))

	news := sendNotification(t, e, `{"notification":{"title":"Weekly news","message":"Hello","category":"news"},
		"sendTo":{"recipients":["ann","carol"]},"override":{"channels":["inApp","email"]}}`)
	logs := waitForLogs(t, e, news, "ann/inApp", "ann/email", "carol/inApp", "carol/email")
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	want := "held: quiet hours until " + heldClock(annEnd.In(kolkata)) + " Asia/Kolkata"
	if l := logs["ann/email"]; l.Status != "held" || l.Reason != want {
		t.Errorf("ann's email: %+v, want held with %q", l, want)
	}
	if l := logs["carol/email"]; l.Status != "held" || !strings.HasPrefix(l.Reason, "held: quiet hours until ") || !strings.HasSuffix(l.Reason, " America/New_York") {
		t.Errorf("carol's email: %+v", l)
	}
	for _, k := range []string{"ann/inApp", "carol/inApp"} {
		if l := logs[k]; l.Status != "delivered" {
			t.Errorf("%s: %+v, want delivered at once", k, l)
		}
	}
	if n := len(inbox(t, e, "ann").Data); n != 1 {
		t.Errorf("ann's inbox has %d rows while her email is held, want 1", n)
	}

	// Critical: carol's window lasts an hour, her security email goes out now.
	alert := sendNotification(t, e, `{"notification":{"title":"New sign-in","message":"Was it you?","category":"security"},
		"sendTo":{"recipients":["carol"]},"override":{"channels":["email"]}}`)
	if l := waitForLogs(t, e, alert, "carol/email")["carol/email"]; l.Status != "sent" || l.Reason != "" {
		t.Errorf("critical email during quiet hours: %+v", l)
	}

	// Ann's window ends: the run's timer releases her email.
	if l := waitForStatus(t, e, news, "ann/email", "sent", 60*time.Second); l.Provider != "smtp" || l.Reason != want {
		t.Errorf("released email: %+v", l)
	}
	if at := sentAt(t, e, news, "ann", "email"); at.Before(annEnd) {
		t.Errorf("ann's email was sent at %s, before her quiet hours ended at %s", at, annEnd)
	}
	got := map[string]string{}
	for _, m := range srv.Messages() {
		got[m.To[0]+" "+m.Subject()] = m.Body()
	}
	if len(got) != 2 || !strings.Contains(got["ann@example.com Weekly news"], "Hello") || got["carol@example.com New sign-in"] == "" {
		t.Errorf("smtp received %v", got)
	}
	if l := messageLogs(t, e, news)["carol/email"]; l.Status != "held" {
		t.Errorf("carol's news email left the hold early: %+v", l)
	}
}

// TestQuietHoursHeldAcrossWorkerRestart: an email is held when the worker stops; the
// window ends while no worker runs; a new worker (a new stack on the same database and
// queues) releases and sends it: the hold is a Temporal timer, not worker state.
func TestQuietHoursHeldAcrossWorkerRestart(t *testing.T) {
	srv := smtptest.Start(t)
	dbURL, secret, queue := dbtest.URL(t), secrets.Token(32), "herald-quiet-"+secrets.HexToken(4)
	configure := func(c *config.Config) { c.DatabaseURL, c.SecretKey, c.TaskQueue = dbURL, secret, queue }
	var req string
	var end time.Time
	var first *stacktest.Env
	t.Run("held when the worker stops", func(t *testing.T) {
		e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: configure})
		first = e
		smtpInstance(t, e, srv)
		if res := e.Do("PUT", "/v3/users/ann", `{"email":"ann@example.com"}`, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("user: %d %s", res.Status, res.Body)
		}
		end = time.Now().Add(15 * time.Second).Truncate(time.Second)
		setQuietHours(t, e, "ann", "Europe/Paris", end)
		req = sendNotification(t, e, `{"notification":{"title":"Held over a restart","message":"Still here"},
			"sendTo":{"recipients":["ann"]},"override":{"channels":["email"]}}`)
		if l := waitForLogs(t, e, req, "ann/email")["ann/email"]; l.Status != "held" {
			t.Fatalf("email: %+v, want held", l)
		}
	}) // this stack's worker and relay stop here, with the email held
	if len(srv.Messages()) != 0 {
		t.Fatalf("an email went out before the window ended: %+v", srv.Messages())
	}
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: configure})
	e.App = first.App
	if l := waitForStatus(t, e, req, "ann/email", "sent", 90*time.Second); l.Provider != "smtp" {
		t.Errorf("released email: %+v", l)
	}
	if at := sentAt(t, e, req, "ann", "email"); at.Before(end) {
		t.Errorf("sent at %s, before the window ended at %s", at, end)
	}
	if msgs := srv.Messages(); len(msgs) != 1 || msgs[0].Subject() != "Held over a restart" {
		t.Errorf("smtp received %+v", msgs)
	}
}

// TestManyHeldMessagesCostNoWorkerAndCancelDropsThem: 10,000 emails held for 10,000 users
// (one topic send) wait in the run on a timer — the run has no pending activity, so no
// worker slot is taken — and in a handful of groups, not one entry per message; cancelling
// the run drops them (skipped, with the reason) and sends none.
func TestManyHeldMessagesCostNoWorkerAndCancelDropsThem(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	app := e.App.AppID
	const n = 10000
	sql(t, e, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, 'everyone', 'Everyone')`, app)
	sql(t, e, `INSERT INTO users (app_id, identifier, profile)
		SELECT $1, 'u' || i, jsonb_build_object('email', 'u' || i || '@example.com', 'timezone', 'UTC') FROM generate_series(1, $2::int) i`, app, n)
	sql(t, e, `INSERT INTO topic_subscriptions (topic_id, user_id, channels)
		SELECT t.id, u.id, '{}'::text[] FROM topics t JOIN users u ON u.app_id = t.app_id WHERE t.app_id = $1`, app)
	now := time.Now().UTC()
	sec := func(t time.Time) int { return t.Hour()*3600 + t.Minute()*60 + t.Second() }
	sql(t, e, `INSERT INTO quiet_hours (app_id, user_id, start_second, end_second)
		SELECT $1, id, $2, $3 FROM users WHERE app_id = $1`, app, sec(now.Add(-time.Hour)), sec(now.Add(2*time.Hour)))

	req := sendNotification(t, e, `{"notification":{"title":"Later","message":"Quiet now"},"sendTo":{"topics":["everyone"]},"override":{"channels":["email"]}}`)
	e.Eventually(120*time.Second, "every email held", func() bool {
		var held int
		_ = e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM message_logs WHERE request_id = $1 AND status = 'held'`, req).Scan(&held)
		return held == n
	})
	id := send.WorkflowID([]uuid.UUID{uuid.MustParse(req)})
	var d describe
	e.Eventually(60*time.Second, "the run waiting on its timer only", func() bool {
		d = describeRun(t, e, id)
		return d.running && d.pendingActivities == 0 && d.timerStarted
	})
	t.Logf("run %s: %+v", id, d)
	if d.maxPayload > 64<<10 {
		t.Errorf("the largest payload of the run's history is %d bytes: held messages should travel in groups", d.maxPayload)
	}
	if err := e.Stack.Temporal.CancelWorkflow(context.Background(), id, ""); err != nil {
		t.Fatal(err)
	}
	e.Eventually(60*time.Second, "held emails dropped", func() bool {
		var dropped int
		_ = e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM message_logs WHERE request_id = $1 AND status = 'skipped'
			AND reason = 'dropped: the run was cancelled while the message was held for quiet hours'`, req).Scan(&dropped)
		return dropped == n
	})
	if len(srv.Messages()) != 0 {
		t.Errorf("smtp received %d messages from a cancelled run", len(srv.Messages()))
	}
}

// describe is what TestManyHeldMessagesCostNoWorkerAndCancelDropsThem looks at in a run.
type describe struct {
	running           bool
	pendingActivities int
	timerStarted      bool
	maxPayload        int
}

// describeRun reads a run's state from Temporal: its status, pending activities, whether a
// timer is waiting, and the size of its largest history event.
func describeRun(t *testing.T, e *stacktest.Env, id string) describe {
	t.Helper()
	var out describe
	d, err := e.Stack.Temporal.DescribeWorkflowExecution(context.Background(), id, "")
	if err != nil {
		return out
	}
	out.running = d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
	out.pendingActivities = len(d.GetPendingActivities())
	it := e.Stack.Temporal.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	timers := 0
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return out
		}
		out.maxPayload = max(out.maxPayload, proto.Size(ev))
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_TIMER_STARTED:
			timers++
		case enumspb.EVENT_TYPE_TIMER_FIRED, enumspb.EVENT_TYPE_TIMER_CANCELED:
			timers--
		}
	}
	out.timerStarted = timers > 0
	return out
}

// TestQuietHoursHoldFlowStepsAndCancellationDropsThem: a user-defined workflow's in-app
// step arrives at once while its email step is held for the recipient's quiet hours and
// sent when they end (the run sleeps on a durable timer); cancelling a run by its
// cancellation key while its email is held drops the email.
func TestQuietHoursHoldFlowStepsAndCancellationDropsThem(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	publishWorkflow(t, e, "nudge", `{"steps":[
		{"id":"note","type":"inApp","content":{"title":"Nudge"},"next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"Nudge by mail","text":"Original content"}}]}`)
	for _, u := range []string{"ann", "bob"} {
		if res := e.Do("PUT", "/v3/users/"+u, `{"email":"`+u+`@example.com"}`, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("user: %d %s", res.Status, res.Body)
		}
	}
	annEnd := time.Now().Add(8 * time.Second).Truncate(time.Second)
	setQuietHours(t, e, "ann", "Europe/Paris", annEnd)
	setQuietHours(t, e, "bob", "Europe/Paris", time.Now().Add(time.Hour))
	req := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"nudge","cancellationKey":"nudge-1"}},"sendTo":{"recipients":["ann","bob"]}}`)
	logs := waitForLogs(t, e, req, "ann/inApp", "ann/email", "bob/inApp", "bob/email")
	for _, u := range []string{"ann", "bob"} {
		if l := logs[u+"/inApp"]; l.Status != "delivered" {
			t.Errorf("%s in-app: %+v, want delivered at once", u, l)
		}
		if l := logs[u+"/email"]; l.Status != "held" || !strings.HasPrefix(l.Reason, "held: quiet hours until ") || !strings.HasSuffix(l.Reason, " Europe/Paris") {
			t.Errorf("%s email: %+v, want held", u, l)
		}
	}
	if res := e.Do("POST", "/v3/workflows/cancel", `{"cancellationKey":"nudge-1","recipients":["bob"]}`, e.AppHeaders()); res.Status != 200 {
		t.Fatalf("cancel: %d %s", res.Status, res.Body)
	}
	if l := waitForStatus(t, e, req, "bob/email", "skipped", 60*time.Second); l.Reason != "dropped: the run was cancelled while the message was held for quiet hours" {
		t.Errorf("bob's dropped email: %+v", l)
	}
	waitForStatus(t, e, req, "ann/email", "sent", 60*time.Second)
	if at := sentAt(t, e, req, "ann", "email"); at.Before(annEnd) {
		t.Errorf("ann's email was sent at %s, before her quiet hours ended at %s", at, annEnd)
	}
	waitForRun(t, e, req, "ann", "completed")
	if got := strings.Join(flowLog(t, e, "ann"), " "); got != "note:sent mail:sent" {
		t.Errorf("ann's workflow log: %s", got)
	}
	msgs := srv.Messages()
	if len(msgs) != 1 || msgs[0].To[0] != "ann@example.com" || msgs[0].Subject() != "Nudge by mail" || !strings.Contains(msgs[0].Body(), "Original content") {
		t.Errorf("smtp received %+v", msgs)
	}
}

// TestSendWindowHoldsAFlowStepUntilItOpens: a workflow's email step with a send window that
// opens a few seconds after the send (in the recipient's time zone) is held until then and
// sent with its content; the in-app step before it arrives at once.
func TestSendWindowHoldsAFlowStepUntilItOpens(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	opens := time.Now().Add(8 * time.Second).Truncate(time.Second)
	local := opens.In(tokyo)
	publishWorkflow(t, e, "office", fmt.Sprintf(`{"steps":[
		{"id":"note","type":"inApp","content":{"title":"Office hours"},"next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"During office hours","text":"Sent in the window"},
		 "sendWindow":{"start":%q,"end":%q}}]}`, local.Format("15:04:05"), local.Add(2*time.Hour).Format("15:04:05")))
	if res := e.Do("PUT", "/v3/users/kim", `{"email":"kim@example.com","timezone":"Asia/Tokyo"}`, e.AppHeaders()); res.Status != 200 {
		t.Fatalf("user: %d %s", res.Status, res.Body)
	}
	req := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"office"}},"sendTo":{"recipients":["kim"]}}`)
	logs := waitForLogs(t, e, req, "kim/inApp", "kim/email")
	want := "held: outside the send window until " + heldClock(local) + " Asia/Tokyo"
	if l := logs["kim/email"]; l.Status != "held" || l.Reason != want {
		t.Errorf("email: %+v, want held with %q", l, want)
	}
	if l := logs["kim/inApp"]; l.Status != "delivered" {
		t.Errorf("in-app: %+v", l)
	}
	waitForStatus(t, e, req, "kim/email", "sent", 60*time.Second)
	if at := sentAt(t, e, req, "kim", "email"); at.Before(opens) {
		t.Errorf("sent at %s, before the window opened at %s", at, opens)
	}
	if msgs := srv.Messages(); len(msgs) != 1 || msgs[0].Subject() != "During office hours" {
		t.Errorf("smtp received %+v", msgs)
	}
}

// heldClock is a release time as a held message's reason writes it: HH:MM, with the seconds
// only when there are some (these tests' times fall on a whole minute once in sixty runs).
func heldClock(t time.Time) string {
	if t.Second() == 0 {
		return t.Format("15:04")
	}
	return t.Format("15:04:05")
}
