package templates

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/notify"
)

func TestBatchingContentRendersDigests(t *testing.T) {
	s, app, other := setup(t)
	ctx := context.Background()
	tpl, _ := s.Create(ctx, app, TemplateInput{Identifier: "orders"})
	if _, err := s.SetContent(ctx, app, tpl.ID, "email", ContentInput{Fields: json.RawMessage(`{"subject":"Order {{data.id}}","text":"one order"}`)}); err != nil {
		t.Fatal(err)
	}
	err := s.SetBatchingContent(ctx, app, tpl.ID, "email", json.RawMessage(`{"subject":7,"text":"{{#each batch.items}"}`))
	if got := details(t, err); !reflect.DeepEqual(got, []string{
		"content.subject must be a string", "content.text: line 1: a tag opened here is not closed with }}",
		"email content needs html or text", "content.subject should not be empty",
	}) {
		t.Errorf("bad batching content: %q", got)
	}
	if err := s.SetBatchingContent(ctx, app, tpl.ID, "sms", json.RawMessage(`{"body":"x"}`)); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("a channel without content: %v", err)
	}
	if err := s.SetBatchingContent(ctx, other, tpl.ID, "email", json.RawMessage(`{"subject":"x","text":"y"}`)); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("another app's template: %v", err)
	}
	if err := s.SetBatchingContent(ctx, app, tpl.ID, "email", json.RawMessage(`{"subject":"{{batch.count}} orders","text":"{{#each batch.items}}#{{id}} {{/each}}"}`)); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Get(ctx, app, tpl.ID)
	if got.Contents[0].BatchingContent["subject"] != "{{batch.count}} orders" {
		t.Errorf("template shows %+v", got.Contents[0])
	}
	b, err := s.Bundle(ctx, app, "orders", notify.Content{})
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"data": map[string]any{"id": "c"}, "batch": map[string]any{"count": 2, "items": []any{map[string]any{"id": "a"}, map[string]any{"id": "b"}}}}
	if r, _ := b.RenderBatch(ctx, "email", data); r.Subject != "2 orders" || r.Text != "#a #b " {
		t.Errorf("digest form: %+v", r)
	}
	if r, _ := b.Render(ctx, "email", data); r.Subject != "Order c" || r.Text != "one order" {
		t.Errorf("regular form: %+v", r)
	}
	// Cleared, the regular content serves digests too.
	if err := s.SetBatchingContent(ctx, app, tpl.ID, "email", nil); err != nil {
		t.Fatal(err)
	}
	b, _ = s.Bundle(ctx, app, "orders", notify.Content{})
	if r, _ := b.RenderBatch(ctx, "email", data); r.Subject != "Order c" {
		t.Errorf("after clearing: %+v", r)
	}
}

func TestInlineContent(t *testing.T) {
	s, app, _ := setup(t)
	ctx := context.Background()
	if got := CheckContent("inApp", json.RawMessage(`{"title":1,"body":"x"}`)); !reflect.DeepEqual(got, []string{
		"content.body is not a field of inApp content (fields: title, message, icon, url)",
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
