package integration

import (
	"testing"

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
