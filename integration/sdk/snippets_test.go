package sdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	herald "github.com/heraldhq/herald/sdk/go"
)

// snippet is one language's snippet of the console's Get started screen, as
// web/console/src/screens/snippets.ts writes it.
type snippet struct {
	Label   string `json:"label"`
	Install string `json:"install"`
	File    string `json:"file"`
	Code    string `json:"code"`
	Run     string `json:"run"`
}

// snippetLanguages are the screen's tabs, in its order.
var snippetLanguages = []string{"curl", "go", "node", "python"}

// TestGetStartedSnippetsReachTheInbox runs every snippet of the console's Get started
// screen against a real stack (the worker and relay on the Temporal dev server), twice:
// once with the secret written in, as an admin sees it, and once without, as a developer
// or viewer sees it, with HERALD_API_SECRET in the environment. The snippets are the
// screen's own text: testdata/snippets.mjs calls the screen's snippets() with the stack's
// URL and an app's key. curl runs in bash; the Go program with `go run` in a module whose
// replace directive points at sdk/go; the Node program with node_modules/@heraldhq/node
// linked to the freshly built sdk/node; the Python program with python3 and
// PYTHONPATH=sdk/python. Each run has an app of its own, and its notification must reach
// first-user's inbox in that app. Every exchange goes through the OpenAPI contract check.
func TestGetStartedSnippetsReachTheInbox(t *testing.T) {
	node, npm := nodeTools(t)
	python := pythonTool(t)
	if _, err := exec.LookPath("curl"); err != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("curl runs the Get started curl command (.ci/run installs it): %v", err)
		}
		t.Skip("skipping: no curl on PATH")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	buildNodeSDK(t, npm, node)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}

	e := stacktest.New(t, stacktest.Options{Temporal: true})
	origin := checkingProxy(t, e.BaseURL)
	type run struct {
		lang   string
		hidden bool
		app    apps.Credentials
	}
	var runs []run
	var cases [][3]string
	for _, hidden := range []bool{false, true} {
		for _, lang := range snippetLanguages {
			r := run{lang: lang, hidden: hidden, app: e.NewApp(fmt.Sprintf("snippet-%s-%t", lang, hidden))}
			secret := r.app.APISecret
			if hidden {
				secret = "$HERALD_API_SECRET" // what GetStarted.tsx passes when the role may not see it
			}
			runs = append(runs, r)
			cases = append(cases, [3]string{origin, r.app.APIKey, secret})
		}
	}
	all := consoleSnippets(t, node, root, cases)

	for i, r := range runs {
		s := all[i][r.lang]
		name := r.lang + "/secret-shown"
		if r.hidden {
			name = r.lang + "/secret-from-env"
		}
		t.Run(name, func(t *testing.T) {
			if r.hidden == strings.Contains(s.Code, r.app.APISecret) {
				t.Fatalf("the secret written in: %t, want %t:\n%s", !r.hidden, !r.hidden, s.Code)
			}
			dir := t.TempDir()
			env := append(withoutHerald(os.Environ()), "PYTHONDONTWRITEBYTECODE=1")
			if r.hidden {
				env = append(env, "HERALD_API_SECRET="+r.app.APISecret)
			}
			var cmd []string
			switch r.lang {
			case "curl":
				cmd = []string{"bash", "-c", s.Code}
			case "go":
				if s.Install != "go mod init first-send && go get github.com/heraldhq/herald/sdk/go" {
					t.Fatalf("install: %q", s.Install)
				}
				// The module `go mod init` and `go get` would make, with sdk/go from this
				// checkout instead of the module proxy.
				writeFile(t, dir, "go.mod", "module first-send\n\ngo 1.23\n\nrequire github.com/heraldhq/herald/sdk/go v0.0.0\n\n"+
					"replace github.com/heraldhq/herald/sdk/go => "+filepath.Join(root, "sdk", "go")+"\n")
				writeFile(t, dir, s.File, s.Code)
				// As gofmt writes it (but for the final newline an editor adds).
				gofmt := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "gofmt"))
				gofmt.Stdin = strings.NewReader(s.Code)
				if out, err := gofmt.CombinedOutput(); err != nil || string(out) != s.Code+"\n" {
					t.Fatalf("the Go snippet is not gofmt-formatted (%v):\n%s", err, out)
				}
				cmd = append([]string{goTool}, strings.Fields(s.Run)[1:]...)
				env = append(env, "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
			case "node":
				if s.Install != "npm install @heraldhq/node" {
					t.Fatalf("install: %q", s.Install)
				}
				// What `npm install @heraldhq/node` puts there: the package, as built from sdk/node.
				if err := os.MkdirAll(filepath.Join(dir, "node_modules", "@heraldhq"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(root, "sdk", "node"), filepath.Join(dir, "node_modules", "@heraldhq", "node")); err != nil {
					t.Fatal(err)
				}
				writeFile(t, dir, s.File, s.Code)
				cmd = []string{node, s.File}
			case "python":
				if s.Install != "pip install herald-sdk" {
					t.Fatalf("install: %q", s.Install)
				}
				writeFile(t, dir, s.File, s.Code)
				cmd = []string{python, s.File}
				env = append(env, "PYTHONPATH="+filepath.Join(root, "sdk", "python"))
			}
			if r.lang != "curl" && s.Run != map[string]string{"go": "go run .", "node": "node send.mjs", "python": "python3 send.py"}[r.lang] {
				t.Fatalf("run: %q", s.Run)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			c := exec.CommandContext(ctx, cmd[0], cmd[1:]...)
			var stderr strings.Builder
			c.Dir, c.Env, c.Stderr = dir, env, &stderr
			out, err := c.Output()
			if err != nil {
				t.Fatalf("%s failed (%v):\n%s%s\n--- the snippet:\n%s", name, err, out, stderr.String(), s.Code)
			}
			// curl prints the answer; the programs, what the SDK returned.
			want := regexp.MustCompile(`^accepted \S+\n$`)
			if r.lang == "curl" {
				want = regexp.MustCompile(`^\{"requestId":"[^"]+"\}\n?$`)
			}
			if !want.Match(out) {
				t.Fatalf("%s printed %q (stderr %q), want %v", name, out, stderr.String(), want)
			}

			sdk, err := herald.NewClient(herald.WithBaseURL(e.BaseURL), herald.WithAPIKey(r.app.APIKey), herald.WithAPISecret(r.app.APISecret))
			if err != nil {
				t.Fatal(err)
			}
			var inbox *herald.NotificationPage
			e.Eventually(30*time.Second, "the "+name+" notification in first-user's inbox", func() bool {
				inbox, err = sdk.AsUser("first-user").ListNotifications(context.Background(), herald.ListOptions{})
				return err == nil && len(inbox.Data) > 0
			})
			if n := inbox.Data; len(n) != 1 || n[0].Title != "Welcome to Herald" || n[0].Message != "Your first notification" {
				t.Fatalf("first-user's inbox: %+v", n)
			}
		})
	}
}

// consoleSnippets returns the screen's snippets for each (origin, key, secret), by language.
func consoleSnippets(t *testing.T, node, root string, cases [][3]string) []map[string]snippet {
	t.Helper()
	raw, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join("testdata", "snippets.mjs"), filepath.Join(root, "sdk", "node"),
		filepath.Join(root, "web", "console", "src", "screens", "snippets.ts"), t.TempDir(), string(raw)).Output()
	if err != nil {
		t.Fatalf("snippets.mjs: %v %s", err, stderrOf(err))
	}
	var all []map[string]snippet
	if err := json.Unmarshal(out, &all); err != nil {
		t.Fatalf("snippets.mjs printed %s: %v", out, err)
	}
	for _, m := range all {
		if len(m) != len(snippetLanguages) {
			t.Fatalf("the screen offers %d languages, the test runs %v", len(m), snippetLanguages)
		}
	}
	return all
}

// pythonTool is the python3 the Python SDK's suite uses (HERALD_TEST_PYTHON or python3).
func pythonTool(t *testing.T) string {
	t.Helper()
	python := os.Getenv("HERALD_TEST_PYTHON")
	if python == "" {
		python = "python3"
	}
	p, err := exec.LookPath(python)
	if err != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("no %s: the Get started snippets need Debian's python3 (.ci/run installs it)", python)
		}
		t.Skipf("skipping: no %s", python)
	}
	return p
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
