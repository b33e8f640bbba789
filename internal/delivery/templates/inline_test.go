package templates

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
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
	b, err := s.InlineBundle(ctx, app, `step "mail"`, "email", json.RawMessage(`{"subject":"Hi {{user.identifier}}","html":"<b>{{data.n}}</b>"}`))
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
