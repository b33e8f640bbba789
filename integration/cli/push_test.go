package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPushCreatesAndPrunes: a folder pulled from development, pushed into the empty
// production app, creates every resource there (production then pulls the same folder);
// a template removed from the folder stays in the app until a push with --prune, which
// deletes a workflow removed from the folder too.
func TestPushCreatesAndPrunes(t *testing.T) {
	w := newWorld(t)
	env := []string{"HERALD_URL=" + w.e.BaseURL, "HERALD_TOKEN=" + w.token}
	run := func(args ...string) result {
		t.Helper()
		r := w.herald(env, args...)
		if r.code != 0 {
			t.Fatalf("herald %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		return r
	}
	dir := filepath.Join(t.TempDir(), "n")
	run("pull", "--app", "development", dir)
	// A second template, with a digest version and a state, to create.
	tdir := filepath.Join(dir, "templates", "digest")
	if err := os.MkdirAll(tdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"template.json":           "{\n  \"description\": \"Daily digest\",\n  \"name\": \"Digest\",\n  \"states\": {\n    \"archived\": \"Archived\"\n  }\n}\n",
		"email.json":              "{\n  \"layout\": \"main\",\n  \"subject\": \"News\"\n}\n",
		"email.text.hbs":          "One update: {{data.title}}\n",
		"email.batching.json":     "{\n  \"subject\": \"{{batch.count}} updates\"\n}\n",
		"email.batching.text.hbs": "{{#each batch.items}}- {{data.title}}\n{{/each}}",
	} {
		if err := os.WriteFile(filepath.Join(tdir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A critical category that starts off on SMS, and the workflow marked critical: the marks
	// travel in the folder and come back from production as written.
	catFile := filepath.Join(dir, "categories.json")
	cats, err := os.ReadFile(catFile)
	if err != nil {
		t.Fatal(err)
	}
	var catMap map[string]any
	if err := json.Unmarshal(cats, &catMap); err != nil {
		t.Fatal(err)
	}
	catMap["otp"] = map[string]any{"name": "Codes", "critical": true, "channelDefaults": map[string]bool{"sms": false}}
	if cats, err = json.MarshalIndent(catMap, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(catFile, append(cats, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	flowFile := filepath.Join(dir, "workflows", "welcome.workflow.json")
	flow, err := os.ReadFile(flowFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flowFile, []byte(strings.Replace(string(flow), "\n  \"definition\"", "\n  \"critical\": true,\n  \"definition\"", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run("push", "--app", "production", dir)
	for _, want := range []string{"+ category otp", "+ category account", "+ layout main", "+ translation en", "+ template welcome", "+ template digest (email content)",
		"~ template digest (email batching content)", "~ template digest (state archived)", "+ workflow welcome (published)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan into an empty app lacks %q:\n%s", want, r.stdout)
		}
	}
	run("diff", "--app", "production", "--exit-code", dir)
	back := filepath.Join(t.TempDir(), "back")
	run("pull", "--app", "production", back)
	a, b := readTree(t, dir), readTree(t, back)
	for f, c := range a {
		if b[f] != c {
			t.Errorf("%s differs when pulled back from production:\n%s\n---\n%s", f, c, b[f])
		}
	}
	if len(a) != len(b) {
		t.Errorf("pulled back %v, pushed %v", keys(b), keys(a))
	}

	// The folder loses a template: kept without --prune, deleted with it.
	if err := os.RemoveAll(tdir); err != nil {
		t.Fatal(err)
	}
	r = run("push", "--app", "production", dir)
	if !strings.Contains(r.stdout, "Nothing to push") || !strings.Contains(r.stdout, "1 resource(s) of the app are not in the folder") {
		t.Errorf("push without the template:\n%s", r.stdout)
	}
	r = run("push", "--app", "production", "--prune", dir)
	if !strings.Contains(r.stdout, "- template digest") {
		t.Errorf("push --prune:\n%s", r.stdout)
	}
	run("diff", "--app", "production", "--exit-code", dir)

	// The folder loses a workflow: --prune deletes it through the API too.
	if err := os.Remove(filepath.Join(dir, "workflows", "welcome.workflow.json")); err != nil {
		t.Fatal(err)
	}
	r = run("push", "--app", "production", "--prune", dir)
	if !strings.Contains(r.stdout, "- workflow welcome") {
		t.Errorf("push --prune without the workflow:\n%s", r.stdout)
	}
	run("diff", "--app", "production", "--exit-code", dir)
}
