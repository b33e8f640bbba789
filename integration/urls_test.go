package integration

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// inboxURLs returns the url of every inbox row of a request, by user.
func inboxURLs(t *testing.T, e *stacktest.Env, requestID string) map[string]string {
	t.Helper()
	rows, err := e.Stack.DB.Pool.Query(context.Background(), `
		SELECT u.identifier, coalesce(n.url, '') FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.request_id = $1`, requestID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var user, url string
		if err := rows.Scan(&user, &url); err != nil {
			t.Fatal(err)
		}
		out[user] = url
	}
	return out
}

// TestScriptURLsNeverReachAnInbox: a real send whose notification.url is javascript: is
// refused with a 400 and stores nothing; a template (and a workflow's inline content) whose
// url renders from data to javascript: for one recipient fails that recipient's in-app
// delivery with a render error in the message log and writes no inbox row, while the
// recipient whose data renders an https url gets it; so does a request accepted before the
// send check.
func TestScriptURLsNeverReachAnInbox(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()

	res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"Hi","url":" jaVa\tscript:alert(document.domain)"},"sendTo":{"recipients":["ann"]}}`, e.AppHeaders())
	if res.Status != 400 || !strings.Contains(string(res.Body), "notification.url must be an http or https URL") {
		t.Fatalf("javascript: send: %d %s", res.Status, res.Body)
	}
	var stored int
	_ = e.Stack.DB.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM notification_requests) + (SELECT count(*) FROM notifications)`).Scan(&stored)
	if stored != 0 {
		t.Fatalf("the refused send stored %d rows", stored)
	}

	tpl, err := e.Stack.Templates.Create(ctx, e.App.AppID, templates.TemplateInput{Identifier: "promo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.Templates.SetContent(ctx, e.App.AppID, tpl.ID, "inApp", templates.ContentInput{
		Fields: json.RawMessage(`{"title":"Sale","url":"{{user.profile.link}}"}`)}); err != nil {
		t.Fatal(err)
	}
	recipients := `[{"identifier":"ann","link":"JAVASCRIPT:alert(1)"},{"identifier":"bob","link":"https://shop.example/sale"}]`
	req := sendNotification(t, e, `{"notification":{"templateIdentifier":"promo"},"sendTo":{"recipients":`+recipients+`}}`)
	logs := waitForLogs(t, e, req, "ann/inApp", "bob/inApp")
	if l := logs["ann/inApp"]; l.Status != "failed" || !strings.HasPrefix(l.Error, "render: inApp.url: the rendered url must be an http or https URL") || strings.Contains(l.Error, "alert") {
		t.Errorf("ann's log: %+v", l)
	}
	if l := logs["bob/inApp"]; l.Status != "delivered" {
		t.Errorf("bob's log: %+v", l)
	}
	if got := inboxURLs(t, e, req); len(got) != 1 || got["bob"] != "https://shop.example/sale" {
		t.Errorf("inbox rows: %v", got)
	}

	// A request accepted before the send check (written as the outbox holds it): its own url
	// is checked when delivered.
	var old string
	if err := e.Stack.DB.Pool.QueryRow(ctx, `INSERT INTO notification_requests (id, app_id, payload, recipient_count)
		VALUES (gen_random_uuid(), $1, $2, 1) RETURNING id::text`, e.App.AppID,
		`{"notification":{"title":"Old","url":"javascript:alert(1)"},"recipients":[{"identifier":"carol"}]}`).Scan(&old); err != nil {
		t.Fatal(err)
	}
	e.Stack.Relay.Wake()
	if l := waitForLogs(t, e, old, "carol/inApp")["carol/inApp"]; l.Status != "failed" || !strings.HasPrefix(l.Error, "render: inApp.url: the url must be an http or https URL") {
		t.Errorf("carol's log: %+v", l)
	}
	if got := inboxURLs(t, e, old); len(got) != 0 {
		t.Errorf("the old request's inbox rows: %v", got)
	}

	publishWorkflow(t, e, "nudge", `{"steps":[{"id":"note","type":"inApp","content":{"title":"Nudge","url":"{{user.profile.link}}"}}]}`)
	req = sendNotification(t, e, `{"notification":{"workflow":{"identifier":"nudge"}},"sendTo":{"recipients":`+
		strings.ReplaceAll(recipients, "JAVASCRIPT:alert(1)", `data:text/html,<script>alert(1)</script>`)+`}}`)
	waitForRun(t, e, req, "bob", "completed")
	e.Eventually(60*time.Second, "ann's run ended", func() bool { s := runStatus(t, e, req, "ann"); return s != "" && s != "running" })
	var annLog string
	_ = e.Stack.DB.Pool.QueryRow(ctx, `SELECT status || ': ' || coalesce(error, '') FROM message_logs WHERE request_id = $1 AND user_identifier = 'ann'`, req).Scan(&annLog)
	if !strings.HasPrefix(annLog, "failed: ") || !strings.Contains(annLog, "inApp.url: the rendered url must be an http or https URL") {
		t.Errorf("ann's workflow message log: %q", annLog)
	}
	if got := inboxURLs(t, e, req); len(got) != 1 || got["bob"] != "https://shop.example/sale" {
		t.Errorf("workflow inbox rows: %v", got)
	}
}
