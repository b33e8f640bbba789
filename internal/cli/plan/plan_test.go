package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/cli/files"
)

func remote() Remote {
	return Remote{
		Set: files.Set{
			Templates: []files.Template{
				{Identifier: "welcome", Name: "welcome", Contents: map[string]files.Content{
					"inApp": {Fields: map[string]string{"title": "Hi"}},
					"sms":   {Fields: map[string]string{"body": "Hi"}},
				}},
				{Identifier: "old", Name: "Old", Contents: map[string]files.Content{"inApp": {Fields: map[string]string{"title": "x"}}}},
			},
			Layouts:      []files.Layout{{Identifier: "main", Name: "Main", HTML: "{{{content}}}", Text: "{{{content}}}", Default: true}},
			Categories:   []files.Category{{Identifier: "account", Name: "Account"}},
			Translations: []files.Translation{{Locale: "en", Entries: map[string]string{"a": "A"}}},
			Workflows:    []files.Workflow{{Identifier: "w", Name: "W", Definition: json.RawMessage(`{"steps":[{"id":"a","type":"inApp","template":"welcome"}]}`)}},
		},
		TemplateIDs: map[string]int64{"welcome": 1, "old": 2}, LayoutIDs: map[string]int64{"main": 3}, CategoryIDs: map[string]int64{"account": 4},
		Unpublished: map[string]bool{},
	}
}

func steps(p Plan) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, strings.TrimSpace(s.Action+" "+s.Kind+" "+s.Key+" "+s.Detail))
	}
	return out
}

// TestMatchingFolderPlansNothing: a folder equal to the app, up to what the server fills
// in (a name defaulting to the identifier, a layout's text defaulting to {{{content}}},
// key order in a definition), plans no step.
func TestMatchingFolderPlansNothing(t *testing.T) {
	r := remote()
	local := r.Set
	local.Templates = []files.Template{{Identifier: "welcome", Contents: r.Set.Templates[0].Contents}, r.Set.Templates[1]}
	local.Layouts = []files.Layout{{Identifier: "main", Name: "Main", HTML: "{{{content}}}", Default: true}}
	local.Workflows = []files.Workflow{{Identifier: "w", Name: "W", Definition: json.RawMessage(`{"steps": [{"template": "welcome", "type": "inApp", "id": "a"}]}`)}}
	if p := Make(local, r, false); len(p.Steps) != 0 || len(p.Notes) != 0 {
		t.Errorf("steps %q notes %q", steps(p), p.Notes)
	}
}

// TestPlanLeavesOrPrunesWhatTheFolderLacks: without --prune, resources missing from the
// folder are noted and kept; with it they are deleted (workflows, templates, layouts,
// categories) or noted as impossible (translations). A channel missing from a template's
// folder is removed either way.
func TestPlanLeavesOrPrunesWhatTheFolderLacks(t *testing.T) {
	r := remote()
	local := files.Set{Templates: []files.Template{{Identifier: "welcome", Name: "Welcome", Contents: map[string]files.Content{
		"inApp": {Fields: map[string]string{"title": "Hello"}},
	}}}}
	p := Make(local, r, false)
	want := []string{"update template welcome name", "update template welcome inApp content", "delete template welcome sms content"}
	if strings.Join(steps(p), "|") != strings.Join(want, "|") {
		t.Errorf("without prune: %q", steps(p))
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "5 resource(s)") {
		t.Errorf("notes %q", p.Notes)
	}
	p = Make(local, r, true)
	got := strings.Join(steps(p), "|")
	for _, w := range []string{"delete workflow", "delete template old", "delete layout main", "delete category account"} {
		if !strings.Contains(got, w) {
			t.Errorf("with prune, no %q in %q", w, got)
		}
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "translation") {
		t.Errorf("with prune, notes %q", p.Notes)
	}
}

// TestPlanOrder: creations come in dependency order (layouts before the templates that
// use them, templates before the workflows that name them), and a new workflow is
// published.
func TestPlanOrder(t *testing.T) {
	local := files.Set{
		Layouts:   []files.Layout{{Identifier: "l", Name: "L", HTML: "{{{content}}}"}},
		Templates: []files.Template{{Identifier: "t", Name: "T", Contents: map[string]files.Content{"email": {Fields: map[string]string{"subject": "s", "text": "x"}, Layout: "l"}}}},
		Workflows: []files.Workflow{{Identifier: "w", Name: "W", Definition: json.RawMessage(`{"steps":[]}`)}},
	}
	p := Make(local, Remote{TemplateIDs: map[string]int64{}, LayoutIDs: map[string]int64{}, CategoryIDs: map[string]int64{}, Unpublished: map[string]bool{}}, false)
	want := "create layout l|create template t|create template t email content|create workflow w published"
	if got := strings.Join(steps(p), "|"); got != want {
		t.Errorf("got %q", got)
	}
}
