package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// publishWorkflow saves a workflow's definition (creating it the first time) and publishes
// it.
func publishWorkflow(t *testing.T, e *stacktest.Env, identifier, definition string) {
	t.Helper()
	ctx := context.Background()
	f := e.Stack.Flows
	if _, err := f.Get(ctx, e.App.AppID, identifier); err != nil {
		if _, err := f.Create(ctx, e.App.AppID, []byte(`{"identifier":"`+identifier+`","name":"test","definition":`+definition+`}`)); err != nil {
			t.Fatal(err)
		}
	} else if _, err := f.Update(ctx, e.App.AppID, identifier, []byte(`{"name":"test","definition":`+definition+`}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Publish(ctx, e.App.AppID, identifier); err != nil {
		t.Fatal(err)
	}
}

// flowLog returns a user's workflow log lines as "step:outcome", oldest first.
func flowLog(t *testing.T, e *stacktest.Env, user string) []string {
	t.Helper()
	rows, err := e.Stack.DB.Pool.Query(context.Background(), `SELECT step_id || ':' || outcome FROM flow_logs WHERE user_identifier = $1 ORDER BY id`, user)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// runStatus is the status of a user's run of a request in flow_runs ("" before it exists).
func runStatus(t *testing.T, e *stacktest.Env, requestID, user string) string {
	t.Helper()
	var s string
	_ = e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT status FROM flow_runs WHERE request_id = $1 AND user_identifier = $2`, requestID, user).Scan(&s)
	return s
}

func waitForRun(t *testing.T, e *stacktest.Env, requestID, user, status string) {
	t.Helper()
	e.Eventually(60*time.Second, fmt.Sprintf("run of %s %s", user, status), func() bool { return runStatus(t, e, requestID, user) == status })
}

func titles(t *testing.T, e *stacktest.Env, user string) string {
	t.Helper()
	var out []string
	for _, n := range inbox(t, e, user).Data {
		out = append(out, n.Title)
	}
	return strings.Join(out, ",")
}

func TestWorkflowWithDelayInAppBranchAndEmail(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	publishWorkflow(t, e, "onboarding", `{"steps":[
		{"id":"pause","type":"delay","duration":"1s","next":"hello"},
		{"id":"hello","type":"inApp","content":{"title":"Hello {{user.identifier}}","message":"{{data.product}}"},"next":"check"},
		{"id":"check","type":"branch","conditions":[
			{"if":{"and":[{"step":"hello","is":"notRead"},{"field":"profile.plan","op":"eq","value":"pro"}]},"next":"mail"}]},
		{"id":"mail","type":"email","content":{"subject":"Welcome aboard, {{user.identifier}}","text":"Your {{data.product}} is ready."}}]}`)
	req := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"onboarding"}},
		"sendTo":{"recipients":[{"identifier":"ann","email":"ann@example.com","plan":"pro"},{"identifier":"bob","email":"bob@example.com","plan":"free"}]},
		"data":{"product":"Herald"}}`)

	waitForRun(t, e, req, "ann", "completed")
	waitForRun(t, e, req, "bob", "completed")
	if got := titles(t, e, "ann"); got != "Hello ann" {
		t.Errorf("ann's inbox: %q", got)
	}
	if got := inbox(t, e, "bob").Data; len(got) != 1 || got[0].Title != "Hello bob" || got[0].Message != "Herald" {
		t.Errorf("bob's inbox: %+v", got)
	}
	m := srv.Last(t, "ann@example.com")
	if m.Subject() != "Welcome aboard, ann" || m.Body() != "Your Herald is ready." {
		t.Errorf("email %q %q", m.Subject(), m.Body())
	}
	if n := srv.Count("bob@example.com"); n != 0 {
		t.Errorf("the branch sent bob (free plan) %d emails", n)
	}
	if got := strings.Join(flowLog(t, e, "ann"), " "); got != "pause:waited hello:sent check:branched mail:sent" {
		t.Errorf("ann's workflow log: %s", got)
	}
	if got := strings.Join(flowLog(t, e, "bob"), " "); got != "pause:waited hello:sent check:branched" {
		t.Errorf("bob's workflow log: %s", got)
	}
	var steps string
	_ = e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT string_agg(channel || '/' || step_key || '=' || status, ',' ORDER BY id)
		FROM message_logs WHERE request_id = $1 AND user_identifier = 'ann'`, req).Scan(&steps)
	if steps != "inApp/hello=delivered,email/mail=sent" {
		t.Errorf("ann's message log: %s", steps)
	}
}

func TestRunningInstanceKeepsItsVersion(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	def := func(v string) string {
		return `{"steps":[{"id":"pause","type":"delay","duration":"2s","next":"note"},{"id":"note","type":"inApp","content":{"title":"` + v + `"}}]}`
	}
	publishWorkflow(t, e, "versioned", def("version one"))
	first := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"versioned"}},"sendTo":{"recipients":["ann"]}}`)
	waitForRun(t, e, first, "ann", "running")
	publishWorkflow(t, e, "versioned", def("version two"))
	if got := titles(t, e, "ann"); got != "" {
		t.Fatalf("the run did not sleep through the change (inbox %q)", got)
	}
	second := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"versioned"}},"sendTo":{"recipients":["bob"]}}`)
	waitForRun(t, e, first, "ann", "completed")
	waitForRun(t, e, second, "bob", "completed")
	if got := titles(t, e, "ann"); got != "version one" {
		t.Errorf("the sleeping instance changed: %q", got)
	}
	if got := titles(t, e, "bob"); got != "version two" {
		t.Errorf("a new send runs the new version: %q", got)
	}
}

func TestCancellationStopsSleepingRuns(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	publishWorkflow(t, e, "reminder", `{"steps":[
		{"id":"first","type":"inApp","content":{"title":"first"},"next":"pause"},
		{"id":"pause","type":"delay","duration":"1h","next":"second"},
		{"id":"second","type":"inApp","content":{"title":"second"}}]}`)
	req := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"reminder","cancellationKey":"order-7"}},"sendTo":{"recipients":["ann","bob"]}}`)
	for _, u := range []string{"ann", "bob"} {
		e.Eventually(60*time.Second, u+"'s first step", func() bool {
			lines := flowLog(t, e, u)
			return len(lines) == 1 && lines[0] == "first:sent"
		})
	}
	cancel := func(body, want string) {
		t.Helper()
		res := e.Do("POST", "/v3/workflows/cancel", body, e.AppHeaders())
		if res.Status != 200 || string(res.Body) != want {
			t.Fatalf("cancel %s: %d %s", body, res.Status, res.Body)
		}
	}
	cancel(`{"cancellationKey":"order-7","recipients":["ann"]}`, `{"cancelled":1,"failed":0}`)
	status := func(user string) enums.WorkflowExecutionStatus {
		d, err := e.Stack.Temporal.DescribeWorkflowExecution(context.Background(), flowrun.WorkflowID("reminder", req, user), "")
		if err != nil {
			t.Fatal(err)
		}
		return d.WorkflowExecutionInfo.Status
	}
	e.Eventually(30*time.Second, "ann's run cancelled", func() bool { return status("ann") == enums.WORKFLOW_EXECUTION_STATUS_CANCELED })
	if s := status("bob"); s != enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
		t.Errorf("bob's run was not named but is %s", s)
	}
	cancel(`{"cancellationKey":"order-7"}`, `{"cancelled":1,"failed":0}`)
	e.Eventually(30*time.Second, "bob's run cancelled", func() bool { return status("bob") == enums.WORKFLOW_EXECUTION_STATUS_CANCELED })
	for _, u := range []string{"ann", "bob"} {
		if got := titles(t, e, u); got != "first" {
			t.Errorf("%s's inbox: %q", u, got)
		}
		if got := strings.Join(flowLog(t, e, u), " "); got != "first:sent pause:cancelled" {
			t.Errorf("%s's workflow log: %s", u, got)
		}
		if s := runStatus(t, e, req, u); s != "cancelled" {
			t.Errorf("%s's run is %s", u, s)
		}
	}
	cancel(`{"cancellationKey":"order-7"}`, `{"cancelled":0,"failed":0}`)
}

func TestDigestCollectsSendsIntoOneEmail(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	ctx := context.Background()
	tpl, err := e.Stack.Templates.Create(ctx, e.App.AppID, templates.TemplateInput{Identifier: "comments"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.Templates.SetContent(ctx, e.App.AppID, tpl.ID, "email", templates.ContentInput{
		Fields: json.RawMessage(`{"subject":"New comment","text":"{{data.comment}}"}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.Templates.SetBatchingContent(ctx, e.App.AppID, tpl.ID, "email",
		[]byte(`{"subject":"{{batch.count}} new comments","text":"{{#each batch.items}}[{{comment}}]{{/each}}"}`)); err != nil {
		t.Fatal(err)
	}
	publishWorkflow(t, e, "comments", `{"steps":[
		{"id":"collect","type":"digest","count":3,"window":"1m","next":"mail"},
		{"id":"mail","type":"email","template":"comments"}]}`)
	var reqs []string
	for _, c := range []string{"nice", "great", "wow"} {
		reqs = append(reqs, sendNotification(t, e, `{"notification":{"workflow":{"identifier":"comments"}},
			"sendTo":{"recipients":[{"identifier":"ann","email":"ann@example.com"}]},"data":{"comment":"`+c+`"}}`))
	}
	e.Eventually(60*time.Second, "the digest email", func() bool { return srv.Count("ann@example.com") > 0 })
	m := srv.Last(t, "ann@example.com")
	if m.Subject() != "3 new comments" {
		t.Errorf("subject %q", m.Subject())
	}
	for _, c := range []string{"[nice]", "[great]", "[wow]"} {
		if !strings.Contains(m.Body(), c) {
			t.Errorf("digest body %q lacks %s", m.Body(), c)
		}
	}
	for _, r := range reqs {
		waitForRun(t, e, r, "ann", "digested")
	}
	if n := srv.Count("ann@example.com"); n != 1 {
		t.Errorf("%d emails, want one digest", n)
	}
}

// TestDigestAtATimeOfDayInTheRecipientsZone: "digest at 08:00 local" through the real
// worker, Temporal and SMTP, with the time a few seconds ahead in the recipient's zone
// (her profile's Asia/Kolkata, not the step's fallback UTC): the sends before it make one
// email, sent no earlier than that time.
func TestDigestAtATimeOfDayInTheRecipientsZone(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	if res := e.Do("PUT", "/v3/users/ann", `{"email":"ann@example.com","timezone":"Asia/Kolkata"}`, e.AppHeaders()); res.Status != 200 {
		t.Fatalf("user: %d %s", res.Status, res.Body)
	}
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	at := time.Now().Add(8 * time.Second).Truncate(time.Second)
	publishWorkflow(t, e, "morning", `{"steps":[
		{"id":"collect","type":"digest","timeOfDay":"`+at.In(kolkata).Format("15:04:05")+`","timezone":"UTC","next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"{{batch.count}} updates","text":"{{#each batch.items}}[{{n}}]{{/each}}"}}]}`)
	var reqs []string
	for _, n := range []string{"1", "2", "3"} {
		reqs = append(reqs, sendNotification(t, e, `{"notification":{"workflow":{"identifier":"morning"}},"sendTo":{"recipients":["ann"]},"data":{"n":`+n+`}}`))
	}
	for _, r := range reqs {
		waitForRun(t, e, r, "ann", "digested")
	}
	if n := srv.Count("ann@example.com"); n != 0 {
		t.Fatalf("%d emails before the digest's time of day", n)
	}
	e.Eventually(60*time.Second, "the digest email", func() bool { return srv.Count("ann@example.com") > 0 })
	m := srv.Last(t, "ann@example.com")
	if m.Subject() != "3 updates" {
		t.Errorf("digest subject %q", m.Subject())
	}
	for _, n := range []string{"[1]", "[2]", "[3]"} { // the three runs reach the collector in any order
		if !strings.Contains(m.Body(), n) {
			t.Errorf("digest body %q lacks %s", m.Body(), n)
		}
	}
	var sent time.Time
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT sent_at FROM message_logs WHERE user_identifier = 'ann' AND channel = 'email'`).Scan(&sent); err != nil {
		t.Fatal(err)
	}
	if sent.Before(at) {
		t.Errorf("digest sent at %s, before %s (its time of day in Kolkata)", sent, at)
	}
	if n := srv.Count("ann@example.com"); n != 1 {
		t.Errorf("%d emails, want one digest", n)
	}
}

func TestWaitForReadWakesWhenTheNotificationIsRead(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	publishWorkflow(t, e, "approval", `{"steps":[
		{"id":"ask","type":"inApp","content":{"title":"Please approve"},"next":"wait"},
		{"id":"wait","type":"waitForRead","step":"ask","timeout":"10m","next":"thanks","timeoutNext":"remind"},
		{"id":"thanks","type":"inApp","content":{"title":"Thanks for reading"}},
		{"id":"remind","type":"email","content":{"subject":"Still waiting","text":"please approve"}}]}`)
	req := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"approval"}},"sendTo":{"recipients":[{"identifier":"ann","email":"ann@example.com"}]}}`)
	var id int64
	e.Eventually(60*time.Second, "the question in the inbox", func() bool {
		page := inbox(t, e, "ann")
		if len(page.Data) == 1 {
			id = page.Data[0].ID
		}
		return id != 0
	})
	if res := e.Do("POST", fmt.Sprintf("/v3/notifications/%d/reads", id), nil, e.UserHeaders("ann")); res.Status >= 300 {
		t.Fatalf("read: %d %s", res.Status, res.Body)
	}
	waitForRun(t, e, req, "ann", "completed")
	if got := titles(t, e, "ann"); got != "Thanks for reading,Please approve" {
		t.Errorf("inbox %q", got)
	}
	if got := strings.Join(flowLog(t, e, "ann"), " "); got != "ask:sent wait:waited thanks:sent" {
		t.Errorf("workflow log: %s", got)
	}
	if n := srv.Count("ann@example.com"); n != 0 {
		t.Errorf("the reminder went out although the notification was read")
	}
}

// TestSendWithUnavailableWorkflowFails: a send naming a workflow the app does not have is
// refused at accept time (422, nothing stored); one whose workflow is deleted between the
// accept and the delivery (here a scheduled send, and a published commit that lacks the
// workflow) fails then, with a log row per recipient saying why.
func TestSendWithUnavailableWorkflowFails(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()
	res := e.Do("POST", "/v3/notifications", `{"notification":{"workflow":{"identifier":"ghost"}},"sendTo":{"recipients":["ann"]}}`, e.AppHeaders())
	if res.Status != 422 || !strings.Contains(string(res.Body), `workflow \"ghost\" does not exist`) {
		t.Fatalf("send naming a missing workflow: %d %s", res.Status, res.Body)
	}
	var stored int
	_ = e.Stack.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM notification_requests`).Scan(&stored)
	if stored != 0 {
		t.Fatalf("the refused send stored %d requests", stored)
	}

	publishWorkflow(t, e, "ghost", `{"steps":[{"id":"hi","type":"inApp","content":{"title":"Hi"}}]}`)
	at := time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)
	req := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"ghost"}},"sendTo":{"recipients":["ann"]},"sendAt":"`+at+`"}`)
	if _, err := e.Stack.DB.Pool.Exec(ctx, `DELETE FROM flows WHERE app_id = $1 AND identifier = 'ghost'`, e.App.AppID); err != nil {
		t.Fatal(err)
	}
	var status, reason string
	e.Eventually(30*time.Second, "the request failed", func() bool {
		_ = e.Stack.DB.Pool.QueryRow(ctx, `SELECT status, coalesce(error, '') FROM notification_requests WHERE id = $1`, req).Scan(&status, &reason)
		return status == "failed"
	})
	if reason != `workflow "ghost" does not exist` {
		t.Errorf("request error %q", reason)
	}
	if l := messageLogs(t, e, req)["ann/workflow"]; l.Status != "failed" || l.Error != reason {
		t.Errorf("message log %+v", l)
	}
}

func TestFlowScheduleSendsTheFlow(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	publishWorkflow(t, e, "daily", `{"steps":[{"id":"note","type":"inApp","content":{"title":"Daily {{data.kind}}"}}]}`)
	res := e.Do("POST", "/v3/workflows/schedules", `{"workflow":"daily","cron":"0 9 * * *","timezone":"Europe/Berlin","sendTo":{"recipients":["ann"]},"data":{"kind":"summary"}}`, e.AppHeaders())
	if res.Status != 201 {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	var created struct {
		ID         int64
		ScheduleID string
	}
	res.JSON(t, &created)
	t.Cleanup(func() { e.Do("DELETE", fmt.Sprintf("/v3/workflows/schedules/%d", created.ID), nil, e.AppHeaders()) })
	// Tick now instead of waiting for 09:00.
	if err := e.Stack.Temporal.ScheduleClient().GetHandle(context.Background(), created.ScheduleID).Trigger(context.Background(), client.ScheduleTriggerOptions{}); err != nil {
		t.Fatal(err)
	}
	e.Eventually(60*time.Second, "the recurring send", func() bool { return titles(t, e, "ann") == "Daily summary" })
}
