package integration

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestEmailThroughSMTPWithTemplateLayoutAndTranslations(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	app := e.App.AppID
	ts := e.Stack.Templates
	if _, err := ts.CreateLayout(ctx, app, templates.LayoutInput{Identifier: "brand", Default: ptr(true),
		HTML: `<html><body><h1>{{app.name}}</h1>{{{content}}}<footer>{{t "footer"}}</footer></body></html>`,
		Text: "{{{content}}}\n--\n{{t \"footer\"}}"}); err != nil {
		t.Fatal(err)
	}
	tpl, err := ts.Create(ctx, app, templates.TemplateInput{Identifier: "order-shipped"})
	if err != nil {
		t.Fatal(err)
	}
	for ch, content := range map[string]string{
		"email": `{"subject":"{{t \"shipped\"}} #{{data.orderId}}","html":"<p>{{t \"hello\"}}</p><ul>{{#each data.items}}<li>{{name}}</li>{{/each}}</ul>","text":"{{t \"hello\"}}"}`,
		"inApp": `{"title":"{{t \"shipped\"}} #{{data.orderId}}","message":"{{#each data.items}}{{name}} {{/each}}"}`,
	} {
		if _, err := ts.SetContent(ctx, app, tpl.ID, ch, templates.ContentInput{Fields: json.RawMessage(content)}); err != nil {
			t.Fatal(err)
		}
	}
	for locale, entries := range map[string]string{
		"en": `{"shipped":"Order shipped","hello":"Hello {{user.profile.name}}","footer":"Thanks"}`,
		"fr": `{"shipped":"Commande expédiée","hello":"Bonjour {{user.profile.name}}","footer":"Merci"}`,
	} {
		if _, err := ts.PutTranslation(ctx, app, locale, templates.TranslationInput{Entries: json.RawMessage(entries), Default: locale == "en"}); err != nil {
			t.Fatal(err)
		}
	}

	req := sendNotification(t, e, `{
		"notification": {"templateIdentifier": "order-shipped"},
		"sendTo": {"recipients": [
			{"identifier": "amelie", "email": "amelie@example.com", "name": "Amélie", "locale": "fr-FR"},
			{"identifier": "bob", "email": "bob@example.com", "name": "Bob <script>"}
		]},
		"data": {"orderId": 1042, "items": [{"name": "Lamp"}, {"name": "Desk & chair"}]}
	}`)
	logs := waitForLogs(t, e, req, "amelie/email", "bob/email")
	byTo := map[string]smtptest.Message{}
	for _, m := range srv.Messages() {
		byTo[m.To[0]] = m
	}
	fr, en := byTo["amelie@example.com"], byTo["bob@example.com"]
	if len(srv.Messages()) != 2 || fr.Raw == nil || en.Raw == nil {
		t.Fatalf("messages: %d", len(srv.Messages()))
	}
	if fr.Subject() != "Commande expédiée #1042" || en.Subject() != "Order shipped #1042" {
		t.Errorf("subjects %q / %q", fr.Subject(), en.Subject())
	}
	if !strings.Contains(fr.Header.Get("From"), "Herald Test") || !strings.Contains(fr.Header.Get("From"), "noreply@herald.test") ||
		fr.Header.Get("To") != "<amelie@example.com>" || fr.Header.Get("Message-Id") != logs["amelie/email"].ProviderMessageID ||
		!strings.HasPrefix(fr.Header.Get("X-Herald-Idempotency-Key"), req+":amelie:email") {
		t.Errorf("headers %v; log %+v", fr.Header, logs["amelie/email"])
	}
	wantFR := `<html><body><h1>test app</h1><p>Bonjour Amélie</p><ul><li>Lamp</li><li>Desk &amp; chair</li></ul><footer>Merci</footer></body></html>`
	if fr.Parts["text/html"] != wantFR {
		t.Errorf("fr html:\n got %s\nwant %s", fr.Parts["text/html"], wantFR)
	}
	if !strings.Contains(en.Parts["text/html"], "<p>Hello Bob &lt;script&gt;</p>") || en.Parts["text/plain"] != "Hello Bob <script>\n--\nThanks" {
		t.Errorf("en body: %q / %q", en.Parts["text/html"], en.Parts["text/plain"])
	}
	for _, k := range []string{"amelie/email", "bob/email"} {
		if l := logs[k]; l.Status != "sent" || l.Provider != "smtp" || l.Attempts != 1 || l.WorkflowID != "send/"+req {
			t.Errorf("%s: %+v", k, l)
		}
	}
	if l := logs["amelie/inApp"]; l.Status != "delivered" {
		t.Errorf("in-app log %+v", l)
	}
	p := inbox(t, e, "amelie")
	if len(p.Data) != 1 || p.Data[0].Title != "Commande expédiée #1042" || p.Data[0].Message != "Lamp Desk & chair " {
		t.Errorf("amelie's inbox %+v", p.Data)
	}
}

func TestPlainSendFillsEveryChannelAndSkipsWithReasons(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	// A web push instance of a provider kind this build lacks: enough for channel
	// selection to see webPush configured (the skip reason is what is tested here).
	sql(t, e, `INSERT INTO provider_instances (app_id, channel, provider, name) VALUES ($1, 'webPush', 'webpush', 'vapid')`, e.App.AppID)
	sql(t, e, `INSERT INTO users (app_id, identifier, profile) VALUES ($1, 'quiet', '{"email":"quiet@example.com"}')`, e.App.AppID)
	sql(t, e, `INSERT INTO preferences (app_id, user_id, category_id, channel, enabled)
		SELECT $1, id, NULL, c, false FROM users, unnest('{email,inApp}'::text[]) c WHERE identifier = 'quiet'`, e.App.AppID)

	req := sendNotification(t, e, `{
		"notification": {"title": "Maintenance tonight", "message": "We will be down\nfor 5 minutes & back"},
		"sendTo": {"recipients": ["quiet", "nomail", {"identifier": "reader", "email": "reader@example.com"}]},
		"override": {"channels": ["inApp", "email", "webPush", "sms"],
		             "channel": {"email": {"subject": "[ops] Maintenance", "fromName": "Ops", "replyTo": "ops@herald.test", "cc": "audit@herald.test"}}},
		"data": {"attachments": [{"filename": "plan.txt", "contentType": "text/plain", "content": "c3RlcCAxOiByZWJvb3Q="}]}
	}`)
	keys := []string{}
	for _, u := range []string{"quiet", "nomail", "reader"} {
		for _, ch := range []string{"inApp", "email", "webPush", "sms"} {
			keys = append(keys, u+"/"+ch)
		}
	}
	logs := waitForLogs(t, e, req, keys...)
	want := map[string]string{
		"quiet/inApp": "skipped:opted out: channel inApp (notifications without a category)", "quiet/email": "skipped:opted out: channel email (notifications without a category)",
		"quiet/webPush": "skipped:no push subscription", "quiet/sms": "skipped:channel not configured",
		"nomail/inApp": "delivered:", "nomail/email": "skipped:no email address",
		"nomail/webPush": "skipped:no push subscription", "nomail/sms": "skipped:channel not configured",
		"reader/inApp": "delivered:", "reader/email": "sent:",
		"reader/webPush": "skipped:no push subscription", "reader/sms": "skipped:channel not configured",
	}
	for k, w := range want {
		if got := logs[k].Status + ":" + logs[k].Reason; got != w {
			t.Errorf("%s: %s, want %s", k, got, w)
		}
	}
	// Nothing is delivered on a disabled pair: every log row has settled, and only
	// reader's email was ever queued.
	msgs := srv.Messages()
	if len(msgs) != 1 || msgs[0].To[0] != "reader@example.com" {
		t.Fatalf("smtp received %d messages", len(msgs))
	}
	if len(inbox(t, e, "quiet").Data) != 0 {
		t.Error("quiet turned in-app off but got an inbox row")
	}
	m := msgs[0]
	if m.Subject() != "[ops] Maintenance" || m.Parts["text/plain"] != "We will be down\nfor 5 minutes & back" || m.Parts["text/html"] != "" {
		t.Errorf("plain email: %q %q", m.Subject(), m.Parts)
	}
	if !strings.HasPrefix(m.Header.Get("From"), `"Ops"`) || m.Header.Get("Reply-To") != "<ops@herald.test>" || m.Header.Get("Cc") != "<audit@herald.test>" ||
		len(m.To) != 2 || m.Attachments["plan.txt"] != "step 1: reboot" {
		t.Errorf("email override and attachment: %v, to %v, attachments %q", m.Header, m.To, m.Attachments)
	}
}

func ptr[T any](v T) *T { return &v }
