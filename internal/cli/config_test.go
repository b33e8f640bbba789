package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testEnv(vars map[string]string) (*Env, *bytes.Buffer) {
	var errb bytes.Buffer
	return &Env{Getenv: func(k string) string { return vars[k] }, Stdout: &bytes.Buffer{}, Stderr: &errb}, &errb
}

// TestProfiles: profiles are saved readable by their owner only; HERALD_URL and
// HERALD_TOKEN override them; a looser file mode draws a warning; a missing login says
// how to log in.
func TestProfiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herald", "credentials.json")
	env, stderr := testEnv(map[string]string{"HERALD_CONFIG": path})
	if _, err := env.profile("default"); err == nil || !strings.Contains(err.Error(), "herald login") {
		t.Errorf("no profile: %v", err)
	}
	cfg := configFile{Profiles: map[string]Profile{"default": {URL: "https://a.example", Token: "hcli_a"}, "prod": {URL: "https://b.example", Token: "hcli_b"}}}
	if err := saveConfig(path, cfg); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	dir, _ := os.Stat(filepath.Dir(path))
	if st.Mode().Perm() != 0o600 || dir.Mode().Perm() != 0o700 {
		t.Errorf("modes %v %v", st.Mode().Perm(), dir.Mode().Perm())
	}
	if p, err := env.profile("prod"); err != nil || p.URL != "https://b.example" || p.Token != "hcli_b" {
		t.Errorf("prod profile %+v %v", p, err)
	}
	env2, _ := testEnv(map[string]string{"HERALD_CONFIG": path, "HERALD_TOKEN": "hcli_env", "HERALD_URL": "https://env.example"})
	if p, _ := env2.profile("default"); p.URL != "https://env.example" || p.Token != "hcli_env" {
		t.Errorf("environment override %+v", p)
	}
	if stderr.Len() != 0 {
		t.Errorf("warnings for a private file: %s", stderr)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := env.profile("default"); err != nil || !strings.Contains(stderr.String(), "chmod 600") {
		t.Errorf("a readable file: %v, warning %q", err, stderr)
	}
}

// TestUsageErrors: command-line mistakes are usage errors (exit status 2) that say what
// is missing.
func TestUsageErrors(t *testing.T) {
	env, _ := testEnv(map[string]string{"HERALD_CONFIG": filepath.Join(t.TempDir(), "c.json")})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"pull", "dir"}, "needs --app"},
		{[]string{"push", "--app", "1", "a", "b"}, `unexpected argument "b"`},
		{[]string{"commit", "--app", "1"}, "-m MESSAGE"},
		{[]string{"publish", "--app", "1"}, "--to APP"},
		{[]string{"send", "--app", "1", "--to", "u"}, "--workflow"},
		{[]string{"logs", "--app", "1", "--limit", "0"}, "--limit"},
		{[]string{"pull", "--nope"}, "flag provided but not defined"},
		{[]string{"apps"}, "herald apps list"},
	} {
		err := Run(context.Background(), c.args, *env)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error with %q", c.args, err, c.want)
		}
	}
}
