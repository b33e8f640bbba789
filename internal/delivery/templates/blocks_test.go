package templates

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
)

// An approval template: its inApp blocks are checked on save (every problem listed, the
// content unchanged), rendered per recipient (values with quotes stay valid JSON) and
// checked again once rendered.
func TestInAppBlocksSavedAndRendered(t *testing.T) {
	s, app, _ := setup(t)
	ctx := context.Background()
	tpl, err := s.Create(ctx, app, TemplateInput{Identifier: "approval"})
	if err != nil {
		t.Fatal(err)
	}
	set := func(blocks string) error {
		body, _ := json.Marshal(map[string]string{"title": "Expense {{data.id}}", "blocks": blocks})
		_, err := s.SetContent(ctx, app, tpl.ID, "inApp", ContentInput{Fields: body})
		return err
	}
	err = set(`[{"type":"buttons","buttons":[{"label":"Open","url":"javascript:{{data.x}}"},{"label":"{{#if x}}","state":"approved"}]},{"type":"image","url":"http://x/{{data.img}}","alt":"chart"}]`)
	want := []string{
		"content.blocks[0].buttons[0].url must be an http or https URL, a relative reference or an app link (javascript: is not allowed)",
		"content.blocks[0].buttons[1].label: line 1: {{#if}} is not closed (missing {{/if}})",
		"content.blocks[1].url must be an https URL",
	}
	if got := details(t, err); !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s", strings.Join(got, "\n"))
	}
	if got := details(t, set(`{"type":"text"}`)); len(got) != 1 || !strings.HasPrefix(got[0], "content.blocks must be the JSON text of an array") {
		t.Errorf("not an array: %q", got)
	}
	if _, err := s.GetContent(ctx, app, tpl.ID, "inApp"); err == nil {
		t.Fatal("a refused content was saved")
	}
	ok := `[
		{"type":"avatar","name":"{{data.author}}","text":"asks for approval"},
		{"type":"text","text":"**{{data.amount}}** for {{data.what}}"},
		{"type":"buttons","exceptStates":["approved","rejected"],"buttons":[{"label":"Approve","state":"approved"},{"label":"Reject","style":"secondary","state":"rejected"},{"label":"Open","url":"{{data.link}}"}]},
		{"type":"text","states":["approved"],"text":"Approved by you"}
	]`
	if err := set(ok); err != nil {
		t.Fatal(err)
	}
	b, err := s.Bundle(ctx, app, "approval", herald.Content{TemplateIdentifier: "approval"})
	if err != nil {
		t.Fatal(err)
	}
	send, _ := SendData(json.RawMessage(`{"id":7,"author":"Ann \"the boss\"","amount":"$40","what":"lunch","link":"https://app.example/e/7"}`), app, "App", nil, herald.Content{})
	r, err := b.Render(ctx, "inApp", Recipient(send, "u", nil))
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(r.Blocks, &got); err != nil || len(got) != 4 {
		t.Fatalf("rendered blocks %s: %v", r.Blocks, err)
	}
	if got[0]["name"] != `Ann "the boss"` || got[1]["text"] != "**$40** for lunch" || got[2]["buttons"].([]any)[2].(map[string]any)["url"] != "https://app.example/e/7" {
		t.Errorf("rendered: %s", r.Blocks)
	}
	// Data that makes a link unsafe refuses the message, as a url field does.
	bad, _ := SendData(json.RawMessage(`{"link":"javascript:alert(1)"}`), app, "App", nil, herald.Content{})
	if _, err := b.Render(ctx, "inApp", Recipient(bad, "u", nil)); err == nil || !strings.Contains(err.Error(), "javascript: is not allowed") {
		t.Errorf("an unsafe rendered link: %v", err)
	}
}
