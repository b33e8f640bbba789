package herald_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// compose is the part of docker-compose.yml this test reads.
type compose struct {
	Services map[string]struct {
		Environment map[string]string `yaml:"environment"`
		Ports       []string          `yaml:"ports"`
	} `yaml:"services"`
}

var (
	// secretName matches variables holding a secret.
	secretName = regexp.MustCompile(`(?i)secret|password|passwd|pwd|token|_key$`)
	// required is a value the operator must set: ${NAME:?message}, and nothing else.
	required = regexp.MustCompile(`^\$\{[A-Z_]+:\?[^}]*\}$`)
	// urlPassword finds the password of a user:password@host URL.
	urlPassword = regexp.MustCompile(`://[^:/@]+:([^@]*)@`)
	// loopbackPort is a published port bound to 127.0.0.1, or to an override variable whose
	// default is 127.0.0.1.
	loopbackPort = regexp.MustCompile(`^(127\.0\.0\.1|\$\{[A-Z_]+:-127\.0\.0\.1\}):\d+:\d+$`)
)

// The compose file is what many operators run as is: no secret may have a default they
// could forget to change (Herald's own key, the database password in every place it is
// used), and every published port binds to the host's loopback unless the operator sets
// an override variable (Temporal's frontend and UI have no authentication).
func TestComposeFileHasNoDefaultSecretsAndBindsLoopback(t *testing.T) {
	raw, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	if len(c.Services) < 6 {
		t.Fatalf("only %d services read", len(c.Services))
	}
	secretsSeen, ports := 0, 0
	for name, s := range c.Services {
		for k, v := range s.Environment {
			if secretName.MatchString(k) {
				secretsSeen++
				if !required.MatchString(v) {
					t.Errorf("%s: %s=%q: a secret must be ${VAR:?message}, with no default", name, k, v)
				}
			}
			if m := urlPassword.FindStringSubmatch(v); m != nil && !required.MatchString(m[1]) {
				t.Errorf("%s: %s has the password %q in its URL: must be ${VAR:?message}", name, k, m[1])
			}
		}
		for _, p := range s.Ports {
			ports++
			if !loopbackPort.MatchString(p) {
				t.Errorf("%s: port %q must bind to 127.0.0.1 (or ${VAR:-127.0.0.1})", name, p)
			}
		}
	}
	for _, want := range []string{"HERALD_SECRET_KEY", "POSTGRES_PASSWORD"} {
		if !strings.Contains(string(raw), "${"+want+":?") {
			t.Errorf("docker-compose.yml does not require %s", want)
		}
	}
	for _, s := range []string{"api", "worker", "migrate"} {
		if !required.MatchString(c.Services[s].Environment["HERALD_SECRET_KEY"]) {
			t.Errorf("%s: HERALD_SECRET_KEY is %q", s, c.Services[s].Environment["HERALD_SECRET_KEY"])
		}
	}
	t.Logf("%d services, %d secret variables all required without default, %d published ports all on loopback", len(c.Services), secretsSeen, ports)
}
