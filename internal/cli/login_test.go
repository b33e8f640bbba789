package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoginSaysWhereTheConsoleMakesTokens: the prompt and the refusal of a token that is
// not a CLI token both send the user to the console's Team page, where the CLI tokens
// section is (web/console/src/screens/Team.tsx), and nothing is saved.
func TestLoginSaysWhereTheConsoleMakesTokens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "credentials.json")
	env, stderr := testEnv(map[string]string{"HERALD_CONFIG": path})
	env.ReadSecret = func() (string, error) { return "sk_live_not_a_cli_token", nil }
	err := Run(context.Background(), []string{"login", "--url", "https://herald.example"}, *env)
	if err == nil {
		t.Fatal("a token without hcli_ was accepted")
	}
	for name, text := range map[string]string{"prompt": stderr.String(), "error": err.Error()} {
		if !strings.Contains(text, "create one in the console under Team → CLI tokens") {
			t.Errorf("the %s does not say where the console makes tokens: %q", name, text)
		}
		if strings.Contains(text, "Settings") {
			t.Errorf("the %s names a Settings page the console does not have: %q", name, text)
		}
	}
	if _, err := env.profile("default"); err == nil {
		t.Error("a profile was saved for a refused token")
	}
	if errors.Is(err, ErrUsage) {
		t.Errorf("a wrong token is not a command-line mistake: %v", err)
	}
}
