package cli_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// world is a stack with a console account that owns a client with two apps (development
// and production), resources created in development through the API, and a CLI token.
type world struct {
	t          *testing.T
	e          *stacktest.Env
	con        *stacktest.Console
	owner      stacktest.SignIn
	client     int64
	dev, prod  int64
	prodKey    string
	token      string
	bin, home  string
	templateID int64
}

func newWorld(t *testing.T) *world {
	t.Helper()
	e, con := stacktest.NewWithConsole(t, stacktest.Options{Temporal: true})
	w := &world{t: t, e: e, con: con, bin: proctest.Binary(t), home: t.TempDir()}
	w.owner = con.User("owner@example.com", "correct horse battery")
	w.client = con.Client(w.owner.AccessToken, "Acme")
	dev := con.App(w.owner.AccessToken, w.client, "development")
	prod := con.App(w.owner.AccessToken, w.client, "production")
	w.dev, w.prod = int64(dev["id"].(float64)), int64(prod["id"].(float64))
	w.prodKey = prod["apiKey"].(string)
	w.token = w.newToken(w.owner.AccessToken, "laptop")
	w.seed()
	return w
}

// api calls the management API as the owner's console session.
func (w *world) api(method, path string, body any, status int) map[string]any {
	w.t.Helper()
	res := w.e.Must(w.e.Do(method, path, body, stacktest.Bearer(w.owner.AccessToken)), status, method+" "+path)
	if len(res.Body) > 0 && res.Body[0] == '{' {
		return res.Map(w.t)
	}
	return nil
}

func (w *world) newToken(session, name string) string {
	w.t.Helper()
	res := w.e.Must(w.e.Do("POST", fmt.Sprintf("/v1/clients/%d/cli-token", w.client), map[string]string{"name": name}, stacktest.Bearer(session)), 201, "create CLI token")
	return res.Map(w.t)["token"].(string)
}

// seed creates development's resources the way the console does.
func (w *world) seed() {
	app := fmt.Sprintf("/v1/apps/%d", w.dev)
	w.api("POST", app+"/categories", map[string]string{"identifier": "account", "name": "Account"}, 201)
	w.api("POST", app+"/layouts", map[string]any{"identifier": "main", "name": "Main", "html": "<html><body>{{{content}}}</body></html>", "default": true}, 201)
	w.api("POST", app+"/translations", map[string]any{"locale": "en", "entries": map[string]string{"greeting": "Hello"}, "default": true}, 201)
	tpl := w.api("POST", app+"/templates", map[string]string{"identifier": "welcome", "name": "Welcome"}, 201)
	w.templateID = int64(tpl["id"].(float64))
	tp := fmt.Sprintf("/v1/templates/%d", w.templateID)
	w.api("PUT", tp+"/contents/inApp", map[string]any{"content": map[string]string{"title": "Hello {{data.name}}", "message": "Glad you are here"}}, 200)
	w.api("PUT", tp+"/contents/email", map[string]any{"content": map[string]string{"subject": "Welcome", "html": "<p>Hi {{data.name}}</p>"}, "layoutIdentifier": "main"}, 200)
	w.api("POST", app+"/workflows", map[string]any{"identifier": "welcome", "name": "Welcome",
		"definition": map[string]any{"steps": []any{map[string]any{"id": "hello", "type": "inApp", "template": "welcome"}}}}, 201)
	w.api("POST", app+"/workflows/welcome/publish", nil, 200)
	w.api("POST", app+"/commits", map[string]string{"message": "start"}, 201)
}

// result is one run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// herald runs the binary with the world's configuration file and extra environment.
func (w *world) herald(env []string, args ...string) result {
	w.t.Helper()
	cmd := exec.Command(w.bin, args...)
	cmd.Env = append([]string{"HOME=" + w.home, "HERALD_CONFIG=" + filepath.Join(w.home, "herald", "credentials.json"),
		"PATH=" + os.Getenv("PATH"), "NO_COLOR=1"}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		w.t.Fatalf("herald %v: %v", args, err)
	}
	return r
}

// ok runs the binary and fails the test unless it succeeds.
func (w *world) ok(args ...string) string {
	w.t.Helper()
	r := w.herald(nil, args...)
	if r.code != 0 {
		w.t.Fatalf("herald %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

func id(n int64) string { return fmt.Sprint(n) }

// readTree returns every file under dir by its relative path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (w *world) uncommitted(app int64) int {
	w.t.Helper()
	res := w.api("GET", fmt.Sprintf("/v1/apps/%d/uncommited-changes", app), nil, 200)
	return int(res["pagination"].(map[string]any)["totalCount"].(float64))
}

// prodInbox returns the titles in a production user's inbox.
func (w *world) prodInbox(user string) []string {
	w.t.Helper()
	h := stacktest.Headers{w.e.Cfg.HeaderPrefix + "API-KEY": w.prodKey, w.e.Cfg.HeaderPrefix + "USER-ID": user}
	var page struct{ Data []struct{ Title string } }
	w.e.Must(w.e.Do("GET", "/v3/notifications", nil, h), 200, "inbox").JSON(w.t, &page)
	var out []string
	for _, n := range page.Data {
		out = append(out, n.Title)
	}
	return out
}

// TestRoundTrip: resources made in the API are pulled, edited as files, pushed, committed
// and published to another app, where a send shows the change; pulling again gives the
// same files and no diff.
func TestRoundTrip(t *testing.T) {
	w := newWorld(t)
	out := w.ok("login", "--url", w.e.BaseURL, "--token", w.token)
	if !strings.Contains(out, "owner@example.com") {
		t.Errorf("login: %s", out)
	}
	cfgPath := filepath.Join(w.home, "herald", "credentials.json")
	st, err := os.Stat(cfgPath)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v, mode %v (want 0600)", err, st.Mode().Perm())
	}
	var me struct{ Email string }
	if err := json.Unmarshal([]byte(w.ok("whoami", "--json")), &me); err != nil || me.Email != "owner@example.com" {
		t.Errorf("whoami --json: %v %+v", err, me)
	}

	dir := filepath.Join(t.TempDir(), "notifications")
	w.ok("pull", "--app", id(w.dev), dir)
	tree := readTree(t, dir)
	for _, f := range []string{"categories.json", "layouts/main.json", "layouts/main.html.hbs", "translations/en.json",
		"templates/welcome/template.json", "templates/welcome/inApp.json", "templates/welcome/inApp.message.hbs",
		"templates/welcome/email.json", "templates/welcome/email.html.hbs", "workflows/welcome.workflow.json", "workflows/workflow.schema.json"} {
		if _, ok := tree[f]; !ok {
			t.Errorf("pull wrote no %s (wrote %v)", f, keys(tree))
		}
	}
	if !strings.Contains(tree["workflows/welcome.workflow.json"], `"$schema": "./workflow.schema.json"`) {
		t.Errorf("workflow file without its schema: %s", tree["workflows/welcome.workflow.json"])
	}
	if !strings.Contains(tree["workflows/workflow.schema.json"], `"#/$defs/WorkflowDefinition"`) {
		t.Errorf("schema: %.300s", tree["workflows/workflow.schema.json"])
	}
	for f, c := range tree {
		if strings.Contains(c, `"id"`) && !strings.HasPrefix(f, "workflows/") || strings.Contains(c, "createdAt") || strings.Contains(c, "updatedAt") {
			t.Errorf("%s holds ids or timestamps: %s", f, c)
		}
	}
	if out := w.ok("diff", "--app", id(w.dev), "--exit-code", dir); !strings.Contains(out, "No differences") {
		t.Errorf("diff right after pull: %s", out)
	}
	w.ok("validate", dir)

	// Edit a file: the in-app title changes.
	inApp := filepath.Join(dir, "templates/welcome/inApp.json")
	edited := strings.Replace(tree["templates/welcome/inApp.json"], "Hello {{data.name}}", "Welcome aboard, {{data.name}}", 1)
	if err := os.WriteFile(inApp, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r := w.herald(nil, "diff", "--app", id(w.dev), "--exit-code", dir)
	if r.code != 1 || !strings.Contains(r.stdout, "+  \"title\": \"Welcome aboard, {{data.name}}\"") || !strings.Contains(r.stdout, "-  \"title\": \"Hello {{data.name}}\"") {
		t.Errorf("diff after the edit: exit %d\n%s", r.code, r.stdout)
	}
	out = w.ok("push", "--app", id(w.dev), "--dry-run", dir)
	if !strings.Contains(out, "~ template welcome (inApp content)") || !strings.Contains(out, "Dry run") {
		t.Errorf("dry run plan: %s", out)
	}
	if n := w.uncommitted(w.dev); n != 0 {
		t.Fatalf("a dry run changed the app: %d uncommitted changes", n)
	}
	out = w.ok("push", "--app", id(w.dev), dir)
	if !strings.Contains(out, "Pushed 1 change") {
		t.Errorf("push: %s", out)
	}
	if n := w.uncommitted(w.dev); n != 1 {
		t.Errorf("after push: %d uncommitted changes, want 1", n)
	}
	if out := w.ok("push", "--app", id(w.dev), dir); !strings.Contains(out, "Nothing to push") {
		t.Errorf("second push: %s", out)
	}
	out = w.ok("commit", "--app", id(w.dev), "-m", "Warmer welcome")
	if !strings.Contains(out, "Created commit") {
		t.Errorf("commit: %s", out)
	}
	if out := w.ok("commit", "--app", id(w.dev), "-m", "again"); !strings.Contains(out, "Nothing to commit") {
		t.Errorf("empty commit: %s", out)
	}
	w.ok("publish", "--app", id(w.dev), "--to", id(w.prod))

	// Production runs the change; logs --follow prints its delivery as it comes.
	follow := exec.Command(w.bin, "logs", "--app", "production", "--follow", "--interval", "100ms", "--json")
	follow.Env = []string{"HOME=" + w.home, "HERALD_URL=" + w.e.BaseURL, "HERALD_TOKEN=" + w.token}
	var followOut proctest.Buffer
	follow.Stdout, follow.Stderr = &followOut, &followOut
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	out = w.ok("send", "--app", id(w.prod), "--workflow", "welcome", "--to", "ada", "--data", `{"name": "Ada"}`)
	if !strings.Contains(out, "Accepted") {
		t.Errorf("send: %s", out)
	}
	w.e.Eventually(60*time.Second, "ada's notification in production", func() bool { return len(w.prodInbox("ada")) == 1 })
	if got := w.prodInbox("ada"); got[0] != "Welcome aboard, Ada" {
		t.Errorf("production rendered %q", got[0])
	}
	w.e.Eventually(60*time.Second, "the send in production's log", func() bool {
		return strings.Contains(w.ok("logs", "--app", id(w.prod)), "ada")
	})
	w.e.Eventually(60*time.Second, "logs --follow printing the send", func() bool { return strings.Contains(followOut.String(), `"userIdentifier":"ada"`) })
	if err := follow.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := follow.Wait(); err != nil {
		t.Errorf("logs --follow after an interrupt: %v\n%s", err, followOut.String())
	}

	// Pulling again gives the same files, and the folder matches the app.
	again := filepath.Join(t.TempDir(), "again")
	w.ok("pull", "--app", id(w.dev), again)
	before, after := readTree(t, dir), readTree(t, again)
	for f, c := range before {
		if after[f] != c {
			t.Errorf("%s differs after pulling again:\n%s\n---\n%s", f, c, after[f])
		}
	}
	if len(before) != len(after) {
		t.Errorf("pull again: %v, before %v", keys(after), keys(before))
	}
	w.ok("diff", "--app", id(w.dev), "--exit-code", dir)
	// Production pulls to the same files (bar nothing): publishing carried everything.
	prodDir := filepath.Join(t.TempDir(), "prod")
	w.ok("pull", "--app", id(w.prod), prodDir)
	w.ok("diff", "--app", id(w.prod), "--exit-code", dir)
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
