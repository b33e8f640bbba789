package files_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/heraldhq/herald/internal/cli/files"
)

// TestRenderParseRoundTrip renders a set and reads it back unchanged, and renders equal
// sets to equal bytes whatever their order.
func TestRenderParseRoundTrip(t *testing.T) {
	set := files.Set{
		Categories:   []files.Category{{Identifier: "billing", Name: "Billing"}, {Identifier: "alerts", Name: "Alerts"}},
		Layouts:      []files.Layout{{Identifier: "main", Name: "Main", HTML: "<b>{{{content}}}</b>", Text: "{{{content}}}", Default: true}},
		Translations: []files.Translation{{Locale: "pt-BR", Entries: map[string]string{"hi": "Olá <b>"}}},
		Templates: []files.Template{{Identifier: "welcome", Name: "Welcome", Description: "first mail", States: map[string]string{"done": "Done"},
			Contents: map[string]files.Content{
				"email": {Fields: map[string]string{"subject": "Hi", "html": "<p>{{data.name}}</p>\n", "text": "Hi"}, Layout: "main",
					Batching: map[string]string{"subject": "{{batch.count}}", "text": "many"}},
				"inApp": {Fields: map[string]string{"title": "T", "message": "M", "url": "/x"}},
			}}},
		Workflows: []files.Workflow{{Identifier: "onboarding", Name: "Onboarding", Definition: json.RawMessage(`{"steps":[{"type":"inApp","id":"a","template":"welcome","count":10}]}`)}},
	}
	out := files.Render(set, []byte("{}\n"))
	if _, ok := out["templates/welcome/email.html.hbs"]; !ok {
		t.Fatalf("no .hbs body: %v", keys(out))
	}
	if string(out["templates/welcome/email.html.hbs"]) != "<p>{{data.name}}</p>\n" {
		t.Errorf("body rewritten: %q", out["templates/welcome/email.html.hbs"])
	}
	f := &files.Folder{Files: out}
	back, probs := files.Parse(f)
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	set.Sort()
	// Definitions compare canonically.
	back.Workflows[0].Definition = json.RawMessage(files.Marshal(files.Canonical(back.Workflows[0].Definition)))
	set.Workflows[0].Definition = json.RawMessage(files.Marshal(files.Canonical(set.Workflows[0].Definition)))
	if !reflect.DeepEqual(back, set) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, set)
	}
	again := files.Render(back, []byte("{}\n"))
	if !reflect.DeepEqual(again, out) {
		t.Error("rendering the read set gives other bytes")
	}
	var wf map[string]any
	if err := json.Unmarshal(out["workflows/onboarding.workflow.json"], &wf); err != nil || wf["$schema"] != files.SchemaRef {
		t.Errorf("workflow file %s", out["workflows/onboarding.workflow.json"])
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestKeyLines(t *testing.T) {
	doc := []byte("{\n  \"a\": 1,\n  \"b\": {\n    \"c\": [\n      1,\n      {\"d\": 2}\n    ]\n  }\n}\n")
	l := files.KeyLines(doc)
	for path, want := range map[string]int{"a": 2, "b": 3, "b.c": 4, "b.c[0]": 5, "b.c[1]": 6, "b.c[1].d": 6} {
		if l[path] != want {
			t.Errorf("%s: line %d, want %d", path, l[path], want)
		}
	}
	if got := files.LineOf(l, "b.c[1].e"); got != 6 {
		t.Errorf("fallback line %d", got)
	}
}
