package templates

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

func setup(t *testing.T) (*Service, int64, int64) {
	t.Helper()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	as := apps.NewService(d, box)
	a, err := as.Create(context.Background(), "app")
	if err != nil {
		t.Fatal(err)
	}
	o, _ := as.Create(context.Background(), "other")
	return NewService(d), a.AppID, o.AppID
}

func details(t *testing.T, err error) []string {
	t.Helper()
	var he *herald.Error
	if !errors.As(err, &he) || he.Code != herald.EINVALID {
		t.Fatalf("want a validation error, got %v", err)
	}
	return he.Details
}

func TestTemplateAndContentValidation(t *testing.T) {
	s, app, other := setup(t)
	ctx := context.Background()
	_, err := s.Create(ctx, app, TemplateInput{Identifier: "bad id!"})
	if got := details(t, err); !reflect.DeepEqual(got, []string{"identifier may contain only letters, digits, '_', '.' and '-'"}) {
		t.Errorf("%q", got)
	}
	tpl, err := s.Create(ctx, app, TemplateInput{Identifier: "welcome", Name: "Welcome"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctx, app, TemplateInput{Identifier: "welcome"}); herald.ErrorCode(err) != herald.ECONFLICT {
		t.Errorf("duplicate identifier: %v", err)
	}
	_, err = s.SetContent(ctx, app, tpl.ID, "email", ContentInput{Fields: json.RawMessage(`{"subject":"Hi {{#if x}}","html":5,"body":"x"}`), LayoutIdentifier: "nope"})
	want := []string{
		"content.body is not a field of email content (fields: subject, html, text)",
		"content.html must be a string",
		"content.subject: line 1: {{#if}} is not closed (missing {{/if}})",
		"email content needs html or text",
		"content.subject should not be empty",
		`layoutIdentifier "nope" is not a layout of this app`,
	}
	if got := details(t, err); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	_, err = s.SetContent(ctx, app, tpl.ID, "pager", ContentInput{Fields: json.RawMessage(`{}`)})
	if got := details(t, err); len(got) != 1 || got[0] != "channel must be one of inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook" {
		t.Errorf("%q", got)
	}
	if _, err := s.SetContent(ctx, other, tpl.ID, "sms", ContentInput{Fields: json.RawMessage(`{"body":"x"}`)}); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("another app's template: %v", err)
	}
	if _, err := s.SetContent(ctx, app, tpl.ID, "sms", ContentInput{Fields: json.RawMessage(`{"body":"Code {{data.code}}"}`)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, app, tpl.ID)
	if err != nil || len(got.Contents) != 1 || got.Contents[0].Fields["body"] != "Code {{data.code}}" {
		t.Errorf("get: %+v %v", got, err)
	}
	if _, err := s.Get(ctx, other, tpl.ID); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("get from another app: %v", err)
	}
	if err := s.Delete(ctx, other, tpl.ID); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("delete from another app: %v", err)
	}
}

func TestLayoutsAndTranslations(t *testing.T) {
	s, app, _ := setup(t)
	ctx := context.Background()
	_, err := s.CreateLayout(ctx, app, LayoutInput{Identifier: "plain", HTML: "<html>no slot</html>"})
	if got := details(t, err); !reflect.DeepEqual(got, []string{"html must contain {{{content}}} where the email body goes"}) {
		t.Errorf("%q", got)
	}
	a, err := s.CreateLayout(ctx, app, LayoutInput{Identifier: "a", HTML: "<a>{{{content}}}</a>", Default: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateLayout(ctx, app, LayoutInput{Identifier: "b", HTML: "<b>{{{content}}}</b>", Default: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	if def, _ := s.DefaultLayout(ctx, app); def.ID != b.ID {
		t.Errorf("default is %d, want the last one made default (%d)", def.ID, b.ID)
	}
	if a, _ = s.GetLayout(ctx, app, a.ID); a.Default {
		t.Error("the previous default is still default")
	}
	_, err = s.PutTranslation(ctx, app, "english", TranslationInput{Entries: json.RawMessage(`{"a":1,"b":"{{#if}}"}`)})
	want := []string{"locale must be a language tag such as en or pt-BR", "entries.a must be a string", "entries.b: line 1: {{#if}} needs an argument"}
	if got := details(t, err); !reflect.DeepEqual(got, want) {
		t.Errorf("%q", got)
	}
	if _, err := s.PutTranslation(ctx, app, "en", TranslationInput{Entries: json.RawMessage(`{"hi":"Hello"}`), Default: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutTranslation(ctx, app, "fr", TranslationInput{Entries: json.RawMessage(`{"hi":"Bonjour"}`), Default: true}); err != nil {
		t.Fatal(err)
	}
	if def, _ := s.DefaultTranslation(ctx, app); def.Locale != "fr" {
		t.Errorf("default translation %s", def.Locale)
	}
	list, total, err := s.ListTranslations(ctx, app, 1, 1)
	if err != nil || total != 2 || len(list) != 1 || list[0].Locale != "en" {
		t.Errorf("page: %+v %d %v", list, total, err)
	}
}

func TestBundleRendersPerRecipient(t *testing.T) {
	s, app, _ := setup(t)
	ctx := context.Background()
	tpl, _ := s.Create(ctx, app, TemplateInput{Identifier: "order"})
	if _, err := s.CreateLayout(ctx, app, LayoutInput{Identifier: "brand", HTML: `<div class="brand">{{app.name}}{{{content}}}</div>`, Text: "{{{content}}}\n-- {{app.name}}"}); err != nil {
		t.Fatal(err)
	}
	mustSet := func(channel, fields, layout string) {
		if _, err := s.SetContent(ctx, app, tpl.ID, channel, ContentInput{Fields: json.RawMessage(fields), LayoutIdentifier: layout}); err != nil {
			t.Fatal(err)
		}
	}
	mustSet("email", `{"subject":"{{t \"subject\"}} #{{data.id}}","html":"<p>{{t \"hello\"}}, {{data.note}}</p>","text":"{{t \"hello\"}}, {{data.note}}"}`, "brand")
	mustSet("sms", `{"body":"{{data.note}} {{#each data.items}}{{name}}{{#unless @last}}+{{/unless}}{{/each}}"}`, "")
	mustSet("inApp", `{"title":"{{t \"subject\"}}","message":"{{user.profile.name}}"}`, "")
	for locale, entries := range map[string]string{
		"en": `{"subject":"Order","hello":"Hello {{user.profile.name}}"}`,
		"fr": `{"subject":"Commande","hello":"Bonjour {{user.profile.name}}"}`,
	} {
		if _, err := s.PutTranslation(ctx, app, locale, TranslationInput{Entries: json.RawMessage(entries), Default: locale == "en"}); err != nil {
			t.Fatal(err)
		}
	}
	b, err := s.Bundle(ctx, app, "order", herald.Content{TemplateIdentifier: "order"})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Channels(); !reflect.DeepEqual(got, []string{"inApp", "email", "sms"}) || b.Has("webhook") {
		t.Errorf("channels %v", got)
	}
	send, _ := SendData(json.RawMessage(`{"id":42,"note":"a <b> & c","items":[{"name":"x"},{"name":"y"}]}`), app, "Shop", nil, herald.Content{})
	fr := Recipient(send, "zoe", json.RawMessage(`{"name":"Zoë","locale":"fr-CA"}`))
	r, err := b.Render(ctx, "email", fr)
	if err != nil {
		t.Fatal(err)
	}
	want := Rendered{
		Subject: "Commande #42",
		HTML:    `<div class="brand">Shop<p>Bonjour Zoë, a &lt;b&gt; &amp; c</p></div>`,
		Text:    "Bonjour Zoë, a <b> & c\n-- Shop",
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("fr-CA email:\n got %+v\nwant %+v", r, want)
	}
	de := Recipient(send, "max", json.RawMessage(`{"name":"Max","locale":"de"}`))
	if r, _ := b.Render(ctx, "inApp", de); r.Title != "Order" || r.Body != "Max" {
		t.Errorf("de falls back to the default translation: %+v", r)
	}
	if r, _ := b.Render(ctx, "sms", de); r.Body != "a <b> & c x+y" {
		t.Errorf("sms is not escaped: %q", r.Body)
	}
	if _, err := s.Bundle(ctx, app, "missing", herald.Content{}); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("missing template: %v", err)
	}
	// Without a template, the notification fills every channel; email gets the layout only
	// when the app has a default one.
	plain, _ := s.Bundle(ctx, app, "", herald.Content{Title: "T", Message: "M <1>"})
	if r, _ := plain.Render(ctx, "email", de); r.Subject != "T" || r.Text != "M <1>" || r.HTML != "" {
		t.Errorf("plain email %+v", r)
	}
	if r, _ := plain.Render(ctx, "webPush", de); r.Title != "T" || r.Body != "M <1>" {
		t.Errorf("plain push %+v", r)
	}
}

func ptr[T any](v T) *T { return &v }
