package templates

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	herald "github.com/heraldhq/herald"
)

func TestInlineContent(t *testing.T) {
	s, app, _ := setup(t)
	ctx := context.Background()
	if got := CheckContent("inApp", json.RawMessage(`{"title":1,"body":"x"}`)); !reflect.DeepEqual(got, []string{
		"content.body is not a field of inApp content (fields: title, message, icon, url, blocks)",
		"content.title must be a string", "inApp content needs title",
	}) {
		t.Errorf("inline problems %q", got)
	}
	if got := CheckContent("sms", json.RawMessage(`{"body":"hi {{user.identifier}}"}`)); len(got) != 0 {
		t.Errorf("valid content: %q", got)
	}
	if _, err := s.CreateLayout(ctx, app, LayoutInput{Identifier: "main", HTML: `<main>{{{content}}}</main>`, Default: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	b, err := s.InlineBundle(ctx, app, `step "mail"`, "email", json.RawMessage(`{"subject":"Hi {{user.identifier}}","html":"<b>{{data.n}}</b>"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.Render(ctx, "email", map[string]any{"user": map[string]any{"identifier": "ann"}, "data": map[string]any{"n": 3}})
	if err != nil || r.Subject != "Hi ann" || r.HTML != "<main><b>3</b></main>" {
		t.Errorf("inline email: %+v %v", r, err)
	}
	if _, err := b.Render(ctx, "sms", nil); err == nil {
		t.Error("inline content renders only its channel")
	}
}

func TestInlineLayoutAndPreview(t *testing.T) {
	s, app, _ := setup(t)
	ctx := context.Background()
	if _, err := s.CreateLayout(ctx, app, LayoutInput{Identifier: "main", HTML: `<main>{{{content}}}</main>`, Default: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateLayout(ctx, app, LayoutInput{Identifier: "plain", HTML: `<div class="plain">{{{content}}}</div>`}); err != nil {
		t.Fatal(err)
	}
	if !s.LayoutExists(ctx, app, "plain") || s.LayoutExists(ctx, app, "gone") || s.LayoutExists(ctx, app+1000, "plain") {
		t.Error("LayoutExists answers for the app's own layouts only")
	}
	fields := json.RawMessage(`{"subject":"Hi {{data.name}}","html":"<b>{{data.n}}</b>"}`)
	b, err := s.InlineBundle(ctx, app, `step "mail"`, "email", fields, "plain")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := b.Render(ctx, "email", map[string]any{"data": map[string]any{"n": 3}}); err != nil || r.HTML != `<div class="plain"><b>3</b></div>` {
		t.Errorf("inline email with a layout: %+v %v", r, err)
	}
	if _, err := s.InlineBundle(ctx, app, `step "mail"`, "email", fields, "gone"); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("a layout that is gone: %v", err)
	}

	// The preview of inline content: no template, the default layout unless one is named,
	// the variables the sample data lacks listed.
	contents := map[string]json.RawMessage{"email": json.RawMessage(`{"content":` + string(fields) + `}`)}
	out, err := s.PreviewInline(ctx, app, PreviewInput{Contents: contents, Data: json.RawMessage(`{"n":7}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Channels["email"]; got.HTML != "<main><b>7</b></main>" || got.Subject != "Hi " {
		t.Errorf("inline preview: %+v", out)
	}
	if len(out.Warnings) != 1 || out.Warnings[0].Variable != "data.name" || out.Warnings[0].Field != "subject" {
		t.Errorf("warnings: %+v", out.Warnings)
	}
	contents["email"] = json.RawMessage(`{"content":` + string(fields) + `,"layoutIdentifier":"plain"}`)
	if out, err = s.PreviewInline(ctx, app, PreviewInput{Contents: contents}); err != nil || out.Channels["email"].HTML != `<div class="plain"><b></b></div>` {
		t.Errorf("inline preview with a layout: %+v %v", out, err)
	}
	// Every problem is listed; no content is a 400.
	_, err = s.PreviewInline(ctx, app, PreviewInput{Contents: map[string]json.RawMessage{
		"fax": json.RawMessage(`{"content":{}}`), "sms": json.RawMessage(`{"content":{"subject":"x"}}`)}})
	var he *herald.Error
	if !errors.As(err, &he) || !reflect.DeepEqual(he.Details, []string{
		"contents.fax is not a channel (channels: inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook)",
		"contents.sms.content.subject is not a field of sms content (fields: body)"}) {
		t.Errorf("problems: %v", err)
	}
	if _, err := s.PreviewInline(ctx, app, PreviewInput{}); herald.ErrorCode(err) != herald.EINVALID {
		t.Errorf("no contents: %v", err)
	}
}
