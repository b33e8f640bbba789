package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestGlobalOptOutAndCriticalWithRealSends: a user turns email off for everything through
// /v3/preferences/channels; a send of a normal category reaches her inbox but sends no
// email (the log row says why); a send of a critical category sends the email anyway
// through the real worker and SMTP, and its log row says which opt-out it ignored.
func TestGlobalOptOutAndCriticalWithRealSends(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	for _, c := range []string{`{"identifier":"news","name":"News"}`, `{"identifier":"security","name":"Security","critical":true}`} {
		if res := e.Do("POST", "/v3/categories", c, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("category: %d %s", res.Status, res.Body)
		}
	}
	if res := e.Do("PUT", "/v3/users/ann", `{"email":"ann@example.com"}`, e.AppHeaders()); res.Status != 200 {
		t.Fatalf("user: %d %s", res.Status, res.Body)
	}
	if res := e.Do("PUT", "/v3/preferences/channels", `{"email":false}`, e.UserHeaders("ann")); res.Status != 200 {
		t.Fatalf("channel switch: %d %s", res.Status, res.Body)
	}

	news := sendNotification(t, e, `{"notification":{"title":"Weekly news","message":"Hello","category":"news"},
		"sendTo":{"recipients":["ann"]},"override":{"channels":["inApp","email"]}}`)
	logs := waitForLogs(t, e, news, "ann/inApp", "ann/email")
	if l := logs["ann/email"]; l.Status != "skipped" || l.Reason != "opted out: channel email (all notifications)" {
		t.Errorf("news email: %+v", l)
	}
	if l := logs["ann/inApp"]; l.Status != "delivered" || l.Reason != "" {
		t.Errorf("news in-app: %+v", l)
	}

	alert := sendNotification(t, e, `{"notification":{"title":"New sign-in","message":"Was it you?","category":"security"},
		"sendTo":{"recipients":["ann"]},"override":{"channels":["inApp","email"]}}`)
	logs = waitForLogs(t, e, alert, "ann/inApp", "ann/email")
	want := "critical (category security): delivered despite opted out: channel email (all notifications)"
	if l := logs["ann/email"]; l.Status != "sent" || l.Provider != "smtp" || l.Reason != want {
		t.Errorf("critical email: %+v", l)
	}
	msgs := srv.Messages()
	if len(msgs) != 1 || msgs[0].To[0] != "ann@example.com" || msgs[0].Subject() != "New sign-in" {
		t.Fatalf("smtp received %d messages: %+v", len(msgs), msgs)
	}
	if n := len(inbox(t, e, "ann").Data); n != 2 {
		t.Errorf("inbox rows %d, want 2", n)
	}
}

// TestFlowOptOutPrecedenceWithRealRuns: the opt-out precedence through real workflow runs
// (Temporal, the worker, SMTP), each switch set through the developer API: workflow ×
// channel beats category × channel, a channel's switch beats the whole workflow's, the
// workflow's switch skips both steps, a channel turned off everywhere beats a workflow ×
// channel switch that is on; once the workflow is marked critical every opt-out is ignored
// and the log rows say so.
func TestFlowOptOutPrecedenceWithRealRuns(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	if res := e.Do("POST", "/v3/categories", `{"identifier":"billing","name":"Billing"}`, e.AppHeaders()); res.Status != 200 {
		t.Fatalf("category: %d %s", res.Status, res.Body)
	}
	var cats []struct{ ID int64 }
	e.Do("GET", "/v3/categories", nil, e.UserHeaders("x")).JSON(t, &cats)
	catID := cats[0].ID
	publishWorkflow(t, e, "reminder", `{"steps":[
		{"id":"note","type":"inApp","content":{"title":"Bill due"},"next":"mail"},
		{"id":"mail","type":"email","content":{"subject":"Bill due","text":"Please pay."}}]}`)
	users := []string{"catoff", "flowoff", "flowoffinapp", "emailoff"}
	for _, u := range users {
		if res := e.Do("PUT", "/v3/users/"+u, `{"email":"`+u+`@example.com"}`, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("user: %d %s", res.Status, res.Body)
		}
	}
	set := func(user, method, path, body string) {
		t.Helper()
		if res := e.Do(method, path, body, e.UserHeaders(user)); res.Status != 200 {
			t.Fatalf("%s %s for %s: %d %s", method, path, user, res.Status, res.Body)
		}
	}
	set("catoff", "PATCH", "/v3/preferences", fmt.Sprintf(`{"preference":[{"categoryId":%d,"channels":[{"channel":"email","enabled":false}]}]}`, catID))
	set("catoff", "PATCH", "/v3/preferences/workflows", `{"workflows":[{"identifier":"reminder","channels":{"email":true}}]}`)
	set("flowoff", "PATCH", "/v3/preferences/workflows", `{"workflows":[{"identifier":"reminder","enabled":false}]}`)
	set("flowoffinapp", "PATCH", "/v3/preferences/workflows", `{"workflows":[{"identifier":"reminder","enabled":false,"channels":{"inApp":true}}]}`)
	set("emailoff", "PUT", "/v3/preferences/channels", `{"email":false}`)
	set("emailoff", "PATCH", "/v3/preferences/workflows", `{"workflows":[{"identifier":"reminder","channels":{"email":true}}]}`)

	send := func() string {
		return sendNotification(t, e, `{"notification":{"workflow":{"identifier":"reminder"},"category":"billing"},
			"sendTo":{"recipients":["catoff","flowoff","flowoffinapp","emailoff"]}}`)
	}
	req := send()
	keys := []string{}
	for _, u := range users {
		keys = append(keys, u+"/inApp", u+"/email")
	}
	logs := waitForLogs(t, e, req, keys...)
	want := map[string]string{
		"catoff/inApp": "delivered:", "catoff/email": "sent:",
		"flowoff/inApp": "skipped:opted out: flow reminder", "flowoff/email": "skipped:opted out: flow reminder",
		"flowoffinapp/inApp": "delivered:", "flowoffinapp/email": "skipped:opted out: flow reminder",
		"emailoff/inApp": "delivered:", "emailoff/email": "skipped:opted out: channel email (all notifications)",
	}
	for k, w := range want {
		if got := logs[k].Status + ":" + logs[k].Reason; got != w {
			t.Errorf("%s: %s, want %s", k, got, w)
		}
	}
	if msgs := srv.Messages(); len(msgs) != 1 || msgs[0].To[0] != "catoff@example.com" {
		t.Fatalf("smtp received %d messages, want catoff's only", len(msgs))
	}

	if _, err := e.Stack.Flows.Patch(context.Background(), e.App.AppID, "reminder", []byte(`{"critical":true}`)); err != nil {
		t.Fatal(err)
	}
	req = send()
	logs = waitForLogs(t, e, req, keys...)
	for _, k := range []string{"flowoff/inApp", "flowoff/email"} {
		if l := logs[k]; l.Reason != "critical (workflow reminder): delivered despite opted out: flow reminder" || (l.Status != "delivered" && l.Status != "sent") {
			t.Errorf("critical %s: %+v", k, l)
		}
	}
	if l := logs["emailoff/email"]; l.Status != "sent" || l.Reason != "critical (workflow reminder): delivered despite opted out: channel email (all notifications)" {
		t.Errorf("critical emailoff/email: %+v", l)
	}
	if n := len(srv.Messages()); n != 1+len(users) {
		t.Errorf("smtp received %d messages, want %d", n, 1+len(users))
	}
}

// TestCategoryDefaultsWithRealSends: a category whose email starts off (the app's
// channelDefaults) sends no email to a user who never chose (the log row says it is off by
// default) and sends it to a user who turned it on, through the real worker and SMTP.
func TestCategoryDefaultsWithRealSends(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	res := e.Do("POST", "/v3/categories", `{"identifier":"digest","name":"Weekly digest","channelDefaults":{"email":false}}`, e.AppHeaders())
	if res.Status != 200 {
		t.Fatalf("category: %d %s", res.Status, res.Body)
	}
	var cat struct{ ID int64 }
	res.JSON(t, &cat)
	for _, u := range []string{"ann", "bob"} {
		if res := e.Do("PUT", "/v3/users/"+u, `{"email":"`+u+`@example.com"}`, e.AppHeaders()); res.Status != 200 {
			t.Fatalf("user: %d %s", res.Status, res.Body)
		}
	}
	body := fmt.Sprintf(`{"preference":[{"categoryId":%d,"channels":[{"channel":"email","enabled":true}]}]}`, cat.ID)
	if res := e.Do("PATCH", "/v3/preferences", body, e.UserHeaders("bob")); res.Status != 200 {
		t.Fatalf("bob turns email on: %d %s", res.Status, res.Body)
	}
	id := sendNotification(t, e, `{"notification":{"title":"Your week","message":"3 new things","category":"digest"},
		"sendTo":{"recipients":["ann","bob"]},"override":{"channels":["inApp","email"]}}`)
	logs := waitForLogs(t, e, id, "ann/inApp", "ann/email", "bob/inApp", "bob/email")
	if l := logs["ann/email"]; l.Status != "skipped" || l.Reason != "off by default: category digest, channel email (the user has not turned it on)" {
		t.Errorf("ann's email: %+v", l)
	}
	if l := logs["bob/email"]; l.Status != "sent" {
		t.Errorf("bob's email: %+v", l)
	}
	for _, k := range []string{"ann/inApp", "bob/inApp"} {
		if l := logs[k]; l.Status != "delivered" {
			t.Errorf("%s: %+v", k, l)
		}
	}
	msgs := srv.Messages()
	if len(msgs) != 1 || msgs[0].To[0] != "bob@example.com" {
		t.Fatalf("smtp received %d messages: %+v", len(msgs), msgs)
	}
}

// TestProviderStopTurnsTheChannelOff: Twilio refuses an SMS because the number replied STOP
// (error 21610); the message fails saying so, the user's sms channel is turned off in
// Herald's preferences, and the next send's SMS is skipped for that reason without calling
// the provider.
func TestProviderStopTurnsTheChannelOff(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	var calls atomic.Int32
	twilio := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		w.Write([]byte(`{"code":21610,"message":"Attempt to send to unsubscribed recipient","status":400}`))
	}))
	defer twilio.Close()
	cfg, _ := json.Marshal(map[string]any{"accountSid": "AC123", "authToken": "twilio-secret", "from": "+15550001111", "baseUrl": twilio.URL})
	if _, err := e.Stack.Channels.CreateInstance(context.Background(), e.App.AppID, "sms", channels.InstanceInput{Provider: "twilio-sms", Name: "test twilio", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	if res := e.Do("PUT", "/v3/users/ann", `{"phone":"+15552223333"}`, e.AppHeaders()); res.Status != 200 {
		t.Fatalf("user: %d %s", res.Status, res.Body)
	}
	first := sendNotification(t, e, `{"notification":{"title":"Code","message":"Your code is 1234"},
		"sendTo":{"recipients":["ann"]},"override":{"channels":["sms"]}}`)
	l := waitForLogs(t, e, first, "ann/sms")["ann/sms"]
	if l.Status != "failed" || !strings.Contains(l.Error, "opted out at the provider (STOP), so sms is now off for this user") || !strings.Contains(l.Error, "Twilio error 21610") {
		t.Fatalf("first sms: %+v", l)
	}
	var switches map[string]bool
	e.Do("GET", "/v3/preferences/channels", nil, e.UserHeaders("ann")).JSON(t, &switches)
	if switches["sms"] || !switches["email"] {
		t.Errorf("channel switches after STOP: %v, want sms off only", switches)
	}
	before := calls.Load()
	second := sendNotification(t, e, `{"notification":{"title":"News","message":"Hello"},
		"sendTo":{"recipients":["ann"]},"override":{"channels":["sms"]}}`)
	if l := waitForLogs(t, e, second, "ann/sms")["ann/sms"]; l.Status != "skipped" || l.Reason != "opted out: channel sms (all notifications)" {
		t.Errorf("second sms: %+v", l)
	}
	if calls.Load() != before {
		t.Errorf("the provider was called again after the STOP")
	}
}
