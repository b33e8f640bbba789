package cli_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// docScript turns docs/cli.md into a bash script: every ```sh block in order, and in the
// place of each ```yaml block the herald lines of its run steps, run with HERALD_URL and
// HERALD_TOKEN set as the CI job sets them.
func docScript(t *testing.T, doc, baseURL, ciToken string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("set -euo pipefail\n")
	sc := bufio.NewScanner(strings.NewReader(doc))
	lang := ""
	inRun := false
	runIndent := 0
	var ci []string
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case lang == "" && strings.HasPrefix(trimmed, "```"):
			lang = strings.TrimPrefix(trimmed, "```")
			if lang == "" {
				t.Fatalf("docs/cli.md: a code block without a language")
			}
			ci = nil
			continue
		case lang != "" && trimmed == "```":
			if lang == "yaml" && len(ci) > 0 {
				b.WriteString("(\nexport HERALD_URL=" + baseURL + " HERALD_TOKEN=" + ciToken + "\n" + strings.Join(ci, "\n") + "\n)\n")
			}
			lang = ""
			continue
		}
		switch lang {
		case "sh":
			b.WriteString(strings.ReplaceAll(line, "https://herald.example.com", baseURL) + "\n")
		case "yaml":
			indent := len(line) - len(strings.TrimLeft(line, " "))
			if inRun && trimmed != "" && indent <= runIndent {
				inRun = false
			}
			if after, ok := strings.CutPrefix(trimmed, "run:"); ok {
				after = strings.TrimSpace(after)
				if after == "|" {
					inRun, runIndent = true, indent
				} else if strings.HasPrefix(after, "herald ") {
					ci = append(ci, after)
				}
				continue
			}
			if inRun && strings.HasPrefix(trimmed, "herald ") {
				ci = append(ci, trimmed)
			}
		}
	}
	return b.String()
}

// TestDocsWalkthrough runs the walk-through of docs/cli.md with the built binary against a
// real stack: log in, pull into a git repository, edit, validate, diff, dry-run, the CI
// job's validate / push / commit / publish, and a send to production, whose inbox must
// show the edited title.
func TestDocsWalkthrough(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t)
	script := docScript(t, string(doc), w.e.BaseURL, w.token)
	for _, want := range []string{"herald login", "herald pull --app development", "herald push --app development .", "herald publish --app development --to production", "herald send --app production"} {
		if !strings.Contains(script, want) {
			t.Fatalf("the walk-through lost %q:\n%s", want, script)
		}
	}
	bin := t.TempDir()
	if err := os.Symlink(w.bin, filepath.Join(bin, "herald")); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = work
	cmd.Env = []string{
		"HOME=" + w.home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "NO_COLOR=1",
		"HERALD_CONFIG=" + filepath.Join(w.home, "herald", "credentials.json"),
		"GIT_AUTHOR_NAME=Docs", "GIT_AUTHOR_EMAIL=docs@example.com", "GIT_COMMITTER_NAME=Docs", "GIT_COMMITTER_EMAIL=docs@example.com",
		"GIT_CONFIG_NOSYSTEM=1", "MESSAGE=Warmer welcome",
	}
	cmd.Stdin = strings.NewReader(w.token + "\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the walk-through failed: %v\n--- script\n%s\n--- output\n%s", err, script, out)
	}
	t.Logf("the walk-through's output:\n%s", out)
	for _, want := range []string{"Logged in to", "~ template welcome (inApp content)", "Dry run", "No uncommitted changes", "Pushed 1 change", "Warmer welcome", "Created commit", "Published commit", "Accepted"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the walk-through's output lacks %q:\n%s", want, out)
		}
	}
	w.e.Eventually(60*time.Second, "ada's notification in production", func() bool { return len(w.prodInbox("ada")) == 1 })
	if got := w.prodInbox("ada"); got[0] != "Welcome aboard, Ada" {
		t.Errorf("production rendered %q", got[0])
	}
}
