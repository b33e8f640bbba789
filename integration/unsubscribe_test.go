package integration

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestOneClickUnsubscribeRoundTrip sends an email in a category through real Temporal to a
// real SMTP server, reads List-Unsubscribe from the received message, makes the RFC 8058
// one-click POST (no cookie, no credentials), and checks that the next email of that
// category to that user is skipped for the preference while another category, and another
// user in the same category, still get theirs.
func TestOneClickUnsubscribeRoundTrip(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.PublicURL = "https://herald.example.com"
	}})
	ctx := context.Background()
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	app := e.App.AppID
	for _, c := range []string{"billing", "news"} {
		if _, err := e.Stack.Categories.Create(ctx, app, []byte(`{"identifier":"`+c+`","name":"`+strings.ToUpper(c[:1])+c[1:]+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Stack.Categories.Create(ctx, app, []byte(`{"identifier":"security","name":"Security","critical":true}`)); err != nil {
		t.Fatal(err)
	}
	tpl, err := e.Stack.Templates.Create(ctx, app, templates.TemplateInput{Identifier: "note"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.Templates.SetContent(ctx, app, tpl.ID, "email", templates.ContentInput{Fields: json.RawMessage(
		`{"subject":"{{data.n}}","html":"<p>{{data.n}}</p><a href=\"{{unsubscribeUrl}}\">Unsubscribe</a>","text":"{{data.n}} {{unsubscribeUrl}} prefs: {{preferencesUrl}}"}`)}); err != nil {
		t.Fatal(err)
	}
	send := func(category, n string, users ...string) string {
		var rec []string
		for _, u := range users {
			rec = append(rec, `{"identifier":"`+u+`","email":"`+u+`@example.com"}`)
		}
		return sendNotification(t, e, `{"notification":{"templateIdentifier":"note","category":"`+category+`"},
			"sendTo":{"recipients":[`+strings.Join(rec, ",")+`]},"data":{"n":"`+n+`"}}`)
	}
	received := func(subject string) []smtptest.Message {
		var out []smtptest.Message
		for _, m := range srv.Messages() {
			if m.Subject() == subject {
				out = append(out, m)
			}
		}
		return out
	}

	first := send("billing", "invoice 1", "alice")
	if l := waitForLogs(t, e, first, "alice/email")["alice/email"]; l.Status != "sent" {
		t.Fatalf("first email: %+v", l)
	}
	msgs := received("invoice 1")
	if len(msgs) != 1 {
		t.Fatalf("%d messages of the first send", len(msgs))
	}
	m := msgs[0]
	list, post := m.Header.Get("List-Unsubscribe"), m.Header.Get("List-Unsubscribe-Post")
	if post != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post = %q", post)
	}
	match := regexp.MustCompile(`^<(https://herald\.example\.com(/unsubscribe/[A-Za-z0-9_-]+))>$`).FindStringSubmatch(list)
	if match == nil {
		t.Fatalf("List-Unsubscribe = %q", list)
	}
	link, path := match[1], match[2]
	if !strings.Contains(m.Parts["text/html"], `<a href="`+link+`">Unsubscribe</a>`) || !strings.Contains(m.Parts["text/plain"], link) {
		t.Errorf("the body does not place {{unsubscribeUrl}} = the header's link: %q / %q", m.Parts["text/html"], m.Parts["text/plain"])
	}

	// {{preferencesUrl}} is the hosted preference page, with a token of its own: it opens
	// the page, and it does not unsubscribe.
	pm := regexp.MustCompile(`prefs: https://herald\.example\.com(/preferences/[A-Za-z0-9_-]+)`).FindStringSubmatch(m.Parts["text/plain"])
	if pm == nil {
		t.Fatalf("no {{preferencesUrl}} in %q", m.Parts["text/plain"])
	}
	if res, body := call(t, "GET", e.BaseURL+pm[1], ""); res.StatusCode != 200 || !strings.Contains(body, "Billing: </span>Email") {
		t.Errorf("GET {{preferencesUrl}}: %d %.300s", res.StatusCode, body)
	}
	if res, _ := call(t, "POST", e.BaseURL+"/unsubscribe/"+strings.TrimPrefix(pm[1], "/preferences/"), "List-Unsubscribe=One-Click"); res.StatusCode != 404 {
		t.Errorf("the preference token posted as one-click unsubscribe: %d", res.StatusCode)
	}

	// GET shows a page and changes nothing (scanners fetch links).
	res, body := call(t, "GET", e.BaseURL+path, "")
	if res.StatusCode != 200 || !strings.Contains(body, `<form method="post">`) || !strings.Contains(body, "Billing") ||
		!strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'none'") || res.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("GET: %d %v %s", res.StatusCode, res.Header, body)
	}
	if off := emailOff(t, e, "alice", "billing"); off {
		t.Fatal("GET turned email off")
	}

	// A tampered token changes nothing: 404.
	i := len("/unsubscribe/") + 3 // a character of the app id
	tampered := path[:i] + map[bool]string{true: "B", false: "C"}[path[i] != 'B'] + path[i+1:]
	if res, body := call(t, "POST", e.BaseURL+tampered, "List-Unsubscribe=One-Click"); res.StatusCode != 404 {
		t.Errorf("tampered token: %d %s", res.StatusCode, body)
	}
	if emailOff(t, e, "alice", "billing") {
		t.Fatal("a tampered token turned email off")
	}

	// The one-click POST, twice: 200 both times.
	for i := range 2 {
		if res, body := call(t, "POST", e.BaseURL+path, "List-Unsubscribe=One-Click"); res.StatusCode != 200 || !strings.Contains(body, "no longer receive") {
			t.Fatalf("one-click POST %d: %d %s", i+1, res.StatusCode, body)
		}
	}
	if !emailOff(t, e, "alice", "billing") {
		t.Fatal("the one-click POST did not turn billing email off")
	}
	// The preference store says so to the API too.
	prefs := e.Do("GET", "/v3/preferences", nil, e.UserHeaders("alice"))
	if prefs.Status != 200 || !regexp.MustCompile(`"identifier":"billing".*?"channel":"email","enabled":false`).Match(prefs.Body) {
		t.Errorf("GET /v3/preferences: %d %s", prefs.Status, prefs.Body)
	}

	// The next billing email to alice is skipped for the preference; bob still gets his,
	// and alice still gets news.
	second := send("billing", "invoice 2", "alice", "bob")
	news := send("news", "newsletter", "alice")
	logs := waitForLogs(t, e, second, "alice/email", "bob/email")
	if l := logs["alice/email"]; l.Status != "skipped" || l.Reason != "opted out: category billing, channel email" {
		t.Errorf("alice's second billing email: %+v", l)
	}
	if l := logs["bob/email"]; l.Status != "sent" {
		t.Errorf("bob's billing email: %+v", l)
	}
	if l := waitForLogs(t, e, news, "alice/email")["alice/email"]; l.Status != "sent" {
		t.Errorf("alice's news email: %+v", l)
	}
	if got := received("invoice 2"); len(got) != 1 || got[0].To[0] != "bob@example.com" {
		t.Errorf("invoice 2 reached %d inboxes", len(got))
	}
	if got := received("newsletter"); len(got) != 1 || got[0].To[0] != "alice@example.com" {
		t.Errorf("the newsletter reached %d inboxes", len(got))
	} else if l := got[0].Header.Get("List-Unsubscribe"); l == "" || strings.Contains(l, path) {
		t.Errorf("the news email's link must be its own: %q", l)
	}
	// A critical category ignores opt-outs, so its email offers no link that would promise
	// otherwise.
	alert := send("security", "new sign-in", "alice")
	if l := waitForLogs(t, e, alert, "alice/email")["alice/email"]; l.Status != "sent" {
		t.Errorf("alice's security email: %+v", l)
	}
	if got := received("new sign-in"); len(got) != 1 {
		t.Errorf("the security email reached %d inboxes", len(got))
	} else if l := got[0].Header.Get("List-Unsubscribe"); l != "" || got[0].Header.Get("List-Unsubscribe-Post") != "" || strings.Contains(got[0].Parts["text/html"], "/unsubscribe/") {
		t.Errorf("a critical email carries an unsubscribe link: %q %q", l, got[0].Parts["text/html"])
	}
	t.Logf("one-click unsubscribe: header link parsed from the SMTP message, GET changed nothing, tampered token 404, POST 200 twice, next billing email skipped (%q), news and another user's billing email sent", logs["alice/email"].Reason)
}

// call makes a request without credentials or cookies, as a mailbox provider does.
func call(t *testing.T, method, u, form string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(form))
	if err != nil {
		t.Fatal(err)
	}
	if form != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// emailOff reports whether a user has turned email off for a category.
func emailOff(t *testing.T, e *stacktest.Env, user, category string) bool {
	t.Helper()
	var n int
	err := e.Stack.DB.Pool.QueryRow(context.Background(), `
		SELECT count(*) FROM preferences p JOIN users u ON u.id = p.user_id JOIN categories c ON c.id = p.category_id
		WHERE u.app_id = $1 AND u.identifier = $2 AND c.identifier = $3 AND p.channel = 'email' AND NOT p.enabled`,
		e.App.AppID, user, category).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// TestFlowEmailsCarryTheUnsubscribeLink: a flow's email step gets the link of the send's
// category (headers and {{unsubscribeUrl}}), and an email without a category gets none
// (there is no per-flow switch to turn off yet).
func TestFlowEmailsCarryTheUnsubscribeLink(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	if _, err := e.Stack.Categories.Create(ctx, e.App.AppID, []byte(`{"identifier":"billing","name":"Billing"}`)); err != nil {
		t.Fatal(err)
	}
	publishWorkflow(t, e, "reminder", `{"steps":[
		{"id":"mail","type":"email","content":{"subject":"Reminder {{data.n}}","text":"Stop: {{unsubscribeUrl}}"}}]}`)
	with := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"reminder"},"category":"billing"},
		"sendTo":{"recipients":[{"identifier":"ann","email":"ann@example.com"}]},"data":{"n":"1"}}`)
	without := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"reminder"}},
		"sendTo":{"recipients":[{"identifier":"bob","email":"bob@example.com"}]},"data":{"n":"2"}}`)
	waitForRun(t, e, with, "ann", "completed")
	waitForRun(t, e, without, "bob", "completed")
	m := srv.Last(t, "ann@example.com")
	link := strings.Trim(m.Header.Get("List-Unsubscribe"), "<>")
	if !strings.Contains(link, "/unsubscribe/") || m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || m.Body() != "Stop: "+link {
		t.Errorf("flow email in a category: List-Unsubscribe %q, body %q", m.Header.Get("List-Unsubscribe"), m.Body())
	}
	if res, body := call(t, "POST", e.BaseURL+link[strings.Index(link, "/unsubscribe/"):], "List-Unsubscribe=One-Click"); res.StatusCode != 200 || !emailOff(t, e, "ann", "billing") {
		t.Errorf("one-click POST of the flow email's link: %d %s", res.StatusCode, body)
	}
	b := srv.Last(t, "bob@example.com")
	if h := b.Header.Get("List-Unsubscribe"); h != "" || b.Body() != "Stop: " {
		t.Errorf("flow email without a category: List-Unsubscribe %q, body %q", h, b.Body())
	}
}
