package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestInvalidFolderPushesNothing: validate names every broken file with its line and
// exits 1; push of that folder refuses before any call that changes the app, even though
// the folder also holds valid changes.
func TestInvalidFolderPushesNothing(t *testing.T) {
	w := newWorld(t)
	env := []string{"HERALD_URL=" + w.e.BaseURL, "HERALD_TOKEN=" + w.token}
	dir := filepath.Join(t.TempDir(), "n")
	if r := w.herald(env, "pull", "--app", id(w.dev), dir); r.code != 0 {
		t.Fatalf("pull: %s", r.stderr)
	}
	write := func(rel, content string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A valid change next to the broken files.
	write("templates/welcome/inApp.json", "{\n  \"title\": \"Changed {{data.name}}\"\n}\n")
	write("templates/welcome/email.html.hbs", "<p>\n{{#if data.vip}}\nHi\n</p>\n")
	write("layouts/main.html.hbs", "<html></html>")
	write("translations/en.json", "{\n  \"default\": true,\n  \"entries\": {\n    \"greeting\": 3\n  }\n}\n")
	write("workflows/welcome.workflow.json", "{\n  \"name\": \"Welcome\",\n  \"definition\": {\n    \"steps\": [\n      {\"id\": \"hello\", \"type\": \"inApp\", \"template\": \"missing\"}\n    ]\n  }\n}\n")
	write("categories.json", "{\n  \"account\": {\"name\": \"Account\"},\n}\n")

	r := w.herald(env, "validate", dir)
	if r.code != 1 {
		t.Fatalf("validate of a broken folder: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"templates/welcome/email.html.hbs:2: ",
		"layouts/main.html.hbs: html must contain {{{content}}}",
		"translations/en.json:4: entries.greeting must be a string",
		`workflows/welcome.workflow.json:5: steps[0].template: no template "missing"`,
		"categories.json:3: not valid JSON",
	} {
		if !strings.Contains(r.stderr, filepath.Join(dir, want)) && !strings.Contains(r.stderr, dir+"/"+want) {
			t.Errorf("validate does not report %q:\n%s", want, r.stderr)
		}
	}
	r = w.herald(env, "validate", "--json", dir)
	if r.code != 1 || !strings.Contains(r.stdout, `"valid": false`) || !strings.Contains(r.stdout, `"line": 4`) {
		t.Errorf("validate --json: exit %d %s", r.code, r.stdout)
	}

	r = w.herald(env, "push", "--app", id(w.dev), dir)
	if r.code != 1 || !strings.Contains(r.stderr, "nothing was pushed") {
		t.Errorf("push of a broken folder: exit %d\n%s", r.code, r.stderr)
	}
	if n := w.uncommitted(w.dev); n != 0 {
		t.Errorf("a refused push changed the app: %d uncommitted changes", n)
	}
}

// TestTokens: a revoked token is refused with a message saying what to do; a viewer's
// token reads (pull) but cannot push, and its refused push changes nothing.
func TestTokens(t *testing.T) {
	w := newWorld(t)
	dir := filepath.Join(t.TempDir(), "n")
	env := func(tok string) []string { return []string{"HERALD_URL=" + w.e.BaseURL, "HERALD_TOKEN=" + tok} }

	// A viewer of the client.
	viewer := w.con.User("viewer@example.com", "correct horse battery")
	w.e.Must(w.e.Do("POST", fmt.Sprintf("/v1/clients/%d/invite-users?role=viewer", w.client), []string{"viewer@example.com"}, stacktest.Bearer(w.owner.AccessToken)), 200, "invite")
	code := w.con.Mail.Last(t, "viewer@example.com").Find(t, `/invitations/([A-Za-z0-9_-]+)`)
	w.e.Must(w.e.Do("GET", "/v1/invitations/"+code+"/accept", nil, stacktest.Bearer(viewer.AccessToken)), 200, "accept")
	vt := w.newToken(viewer.AccessToken, "viewer laptop")

	if r := w.herald(env(vt), "pull", "--app", id(w.dev), dir); r.code != 0 {
		t.Fatalf("a viewer's pull: %s", r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "templates/welcome/inApp.json"), []byte("{\n  \"title\": \"By a viewer\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := w.herald(env(vt), "push", "--app", id(w.dev), dir)
	if r.code != 1 || !strings.Contains(r.stderr, "403") || !strings.Contains(r.stderr, "developer role") {
		t.Errorf("a viewer's push: exit %d\n%s", r.code, r.stderr)
	}
	if n := w.uncommitted(w.dev); n != 0 {
		t.Errorf("a viewer's push changed the app: %d changes", n)
	}
	if r := w.herald(env(vt), "publish", "--app", id(w.dev), "--to", id(w.prod)); r.code != 1 || !strings.Contains(r.stderr, "403") {
		t.Errorf("a viewer's publish: exit %d\n%s", r.code, r.stderr)
	}
	// The owner's token pushes the same folder.
	if r := w.herald(env(w.token), "push", "--app", id(w.dev), dir); r.code != 0 {
		t.Errorf("the owner's push: %s", r.stderr)
	}

	// Revoked: refused at once.
	var list []map[string]any
	w.e.Must(w.e.Do("GET", fmt.Sprintf("/v1/clients/%d/cli-token", w.client), nil, stacktest.Bearer(w.owner.AccessToken)), 200, "tokens").JSON(t, &list)
	for _, tok := range list {
		if tok["name"] == "laptop" {
			w.e.Must(w.e.Do("DELETE", fmt.Sprintf("/v1/clients/%d/cli-token/%d", w.client, int64(tok["id"].(float64))), nil, stacktest.Bearer(w.owner.AccessToken)), 200, "revoke")
		}
	}
	r = w.herald(env(w.token), "whoami")
	if r.code != 1 || !strings.Contains(r.stderr, "401") || !strings.Contains(r.stderr, "herald login") {
		t.Errorf("whoami with a revoked token: exit %d\n%s", r.code, r.stderr)
	}
	r = w.herald(nil, "login", "--url", w.e.BaseURL, "--token", w.token)
	if r.code != 1 || !strings.Contains(r.stderr, "refused the token") {
		t.Errorf("login with a revoked token: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(w.home, "herald", "credentials.json")); err == nil {
		t.Error("a refused login saved the token")
	}
	// Not logged in at all.
	if r := w.herald(nil, "pull", "--app", id(w.dev), dir); r.code != 1 || !strings.Contains(r.stderr, "not logged in") {
		t.Errorf("pull without a login: exit %d\n%s", r.code, r.stderr)
	}
	if r := w.herald(nil, "pull", dir); r.code != 2 || !strings.Contains(r.stderr, "--app") {
		t.Errorf("pull without --app: exit %d\n%s", r.code, r.stderr)
	}
}
