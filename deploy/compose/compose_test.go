package compose

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/template"
	"github.com/compose-spec/compose-go/v2/types"
	"go.yaml.in/yaml/v3"
)

// root is the repository, two levels up from this module.
var root = filepath.Join("..", "..")

// env is what an operator sets: the two secrets the file requires, nothing else (the bind
// overrides keep their defaults).
var env = []string{"HERALD_SECRET_KEY=test-key-0123456789-0123456789-0123456789", "POSTGRES_PASSWORD=test-password"}

// load reads docker-compose.yml the way `docker compose` does (interpolation, anchors,
// validation against the Compose schema) with the given variables only.
func load(t *testing.T, vars []string) (*types.Project, error) {
	t.Helper()
	o, err := cli.NewProjectOptions([]string{filepath.Join(root, "docker-compose.yml")},
		cli.WithName("herald"), cli.WithWorkingDirectory(root), cli.WithEnv(vars))
	if err != nil {
		t.Fatal(err)
	}
	return o.LoadProject(context.Background())
}

func project(t *testing.T) *types.Project {
	t.Helper()
	p, err := load(t, env)
	if err != nil {
		t.Fatalf("docker-compose.yml does not load: %v", err)
	}
	return p
}

// oneShot reports whether every service depending on name waits for it to complete (a
// job such as migrate, which exits), and at least one does.
func oneShot(p *types.Project, name string) bool {
	n := 0
	for _, s := range p.Services {
		if d, ok := s.DependsOn[name]; ok {
			if d.Condition != types.ServiceConditionCompletedSuccessfully {
				return false
			}
			n++
		}
	}
	return n > 0
}

// Every long-running service has a health check, and every dependency waits for health
// (or, on a one-shot job, for its success): `depends_on` without a condition only waits for
// the container to start, which is how an API comes up before its database answers.
func TestComposeHealthChecksAndDependencies(t *testing.T) {
	p := project(t)
	if len(p.Services) < 7 {
		t.Fatalf("only %d services loaded: %v", len(p.Services), p.ServiceNames())
	}
	for name, s := range p.Services {
		switch {
		case oneShot(p, name):
			if s.Restart != "" && s.Restart != types.RestartPolicyNo {
				t.Errorf("%s: a one-shot job with restart %q", name, s.Restart)
			}
		case s.HealthCheck == nil || s.HealthCheck.Disable || len(s.HealthCheck.Test) < 2:
			t.Errorf("%s: no health check", name)
		case s.HealthCheck.Test[0] != "CMD" && s.HealthCheck.Test[0] != "CMD-SHELL":
			t.Errorf("%s: health check %q", name, s.HealthCheck.Test)
		}
		for dep, d := range s.DependsOn {
			if _, ok := p.Services[dep]; !ok {
				t.Errorf("%s depends on %s, which is no service", name, dep)
				continue
			}
			want := types.ServiceConditionHealthy
			if oneShot(p, dep) {
				want = types.ServiceConditionCompletedSuccessfully
			}
			if d.Condition != want {
				t.Errorf("%s depends on %s with condition %q, want %s", name, dep, d.Condition, want)
			}
		}
	}
	// The herald services check themselves with herald healthcheck (the image has no shell).
	for name, url := range map[string]string{"api": "http://127.0.0.1:8080/readyz", "worker": "http://127.0.0.1:9464/livez"} {
		if hc := p.Services[name].HealthCheck; hc == nil || !slices.Equal(hc.Test, []string{"CMD", "/usr/local/bin/herald", "healthcheck", "--url", url}) {
			t.Errorf("%s: health check %v, want herald healthcheck --url %s", name, hc, url)
		}
	}
	if !oneShot(p, "migrate") {
		t.Error("migrate is not waited for as a one-shot job by api and worker")
	}
	for _, s := range []string{"api", "worker"} {
		if p.Services[s].DependsOn["migrate"].Condition != types.ServiceConditionCompletedSuccessfully {
			t.Errorf("%s does not wait for migrate to succeed", s)
		}
	}
}

var (
	// secretName matches variables and settings holding a secret.
	secretName = regexp.MustCompile(`(?i)secret|password|passwd|pwd|token|_key$|_keys$`)
	// urlPassword finds the password of a user:password@host URL.
	urlPassword = regexp.MustCompile(`://[^:/@]+:([^@]*)@`)
)

// raw is the file as YAML (anchors resolved, nothing interpolated): what the operator's
// variables are substituted into.
func raw(t *testing.T) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// No secret has a default the operator could forget to change: every variable holding one
// is ${VAR:?message} (Compose refuses to start without it), every setting holding one
// comes from such a variable, and a URL's password too. Loading without them fails and
// names them.
func TestComposeSecretsHaveNoDefault(t *testing.T) {
	m := raw(t)
	vars := template.ExtractVariables(m, template.DefaultPattern)
	secrets := 0
	for name, v := range vars {
		if !secretName.MatchString(name) {
			continue
		}
		secrets++
		if !v.Required || v.DefaultValue != "" {
			t.Errorf("${%s}: a secret must be ${%s:?message}, required with no default (default %q, required %v)", name, name, v.DefaultValue, v.Required)
		}
	}
	for _, want := range []string{"HERALD_SECRET_KEY", "POSTGRES_PASSWORD"} {
		if _, ok := vars[want]; !ok {
			t.Errorf("the file does not take %s from a variable", want)
		}
	}
	p := project(t)
	for name, s := range p.Services {
		for k := range s.Environment {
			if !secretName.MatchString(k) {
				continue
			}
			// The raw value must be a required variable, never a literal.
			v, _ := rawEnv(m, name, k)
			if !regexp.MustCompile(`^\$\{[A-Z_]+:\?[^}]*\}$`).MatchString(v) {
				t.Errorf("%s: %s=%q: a secret must be ${VAR:?message}", name, k, v)
			}
		}
		for k := range s.Environment {
			v, _ := rawEnv(m, name, k)
			if pw := urlPassword.FindStringSubmatch(v); pw != nil && !strings.HasPrefix(pw[1], "${") {
				t.Errorf("%s: %s has the literal password %q in its URL", name, k, pw[1])
			} else if pw != nil && !vars[strings.TrimPrefix(strings.SplitN(strings.SplitN(pw[1], ":", 2)[0], "}", 2)[0], "${")].Required {
				t.Errorf("%s: %s takes its URL's password from a variable that is not required", name, k)
			}
		}
	}
	// Compose itself refuses to start without each secret, naming it.
	for i, missing := range []string{"HERALD_SECRET_KEY", "POSTGRES_PASSWORD"} {
		_, err := load(t, []string{env[1-i]})
		if err == nil || !strings.Contains(err.Error(), missing) {
			t.Errorf("loaded without %s: %v", missing, err)
		}
	}
	t.Logf("%d secret variables, all required without default", secrets)
}

// rawEnv is a service's environment value before interpolation.
func rawEnv(m map[string]any, service, key string) (string, bool) {
	s, _ := m["services"].(map[string]any)[service].(map[string]any)
	switch e := s["environment"].(type) {
	case map[string]any:
		v, ok := e[key]
		str, _ := v.(string)
		return str, ok
	case []any:
		for _, kv := range e {
			if k, v, ok := strings.Cut(kv.(string), "="); ok && k == key {
				return v, true
			}
		}
	}
	return "", false
}

// Every published port binds to the host's loopback unless the operator sets an override
// variable (Temporal's frontend and UI have no authentication), and an override's default
// is loopback too.
func TestComposePortsBindLoopback(t *testing.T) {
	p := project(t)
	n := 0
	for name, s := range p.Services {
		for _, port := range s.Ports {
			n++
			if port.HostIP != "127.0.0.1" {
				t.Errorf("%s: port %s published on %q, want 127.0.0.1", name, port.Published, port.HostIP)
			}
		}
	}
	for name, v := range template.ExtractVariables(raw(t), template.DefaultPattern) {
		if strings.HasSuffix(name, "_BIND") && (v.DefaultValue != "127.0.0.1" || v.Required) {
			t.Errorf("${%s}: default %q, want 127.0.0.1", name, v.DefaultValue)
		}
	}
	// An override moves the port where the operator says.
	o, err := load(t, append(slices.Clone(env), "HERALD_API_BIND=0.0.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	if hostIP(o, "api", "8080") != "0.0.0.0" || hostIP(o, "temporal-ui", "8233") != "127.0.0.1" {
		t.Errorf("HERALD_API_BIND=0.0.0.0: api on %q, temporal-ui on %q", hostIP(o, "api", "8080"), hostIP(o, "temporal-ui", "8233"))
	}
	t.Logf("%d published ports, all on 127.0.0.1", n)
}

func hostIP(p *types.Project, service, published string) string {
	for _, port := range p.Services[service].Ports {
		if port.Published == published {
			return port.HostIP
		}
	}
	return "not published"
}

// published reports whether service publishes host port to the container port target.
func published(p *types.Project, service, host string, target uint32) bool {
	for _, port := range p.Services[service].Ports {
		if port.Published == host && (target == 0 || port.Target == target) {
			return true
		}
	}
	return false
}

// readmeCompose is the README's paragraph on compose: from "everything in containers" to
// the next blank line after its code block's end, and the commands of its code block.
func readmeCompose(t *testing.T) (para string, commands []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "everything in containers")
	if i < 0 {
		t.Fatal("README.md has no compose section (\"everything in containers\")")
	}
	s = s[i:]
	start := strings.Index(s, "```sh\n")
	end := strings.Index(s[start+6:], "```")
	if start < 0 || end < 0 {
		t.Fatal("README.md's compose section has no ```sh block")
	}
	for _, l := range strings.Split(s[start+6:start+6+end], "\n") {
		if l = strings.TrimSpace(l); l != "" {
			commands = append(commands, l)
		}
	}
	rest := strings.TrimLeft(s[start+6+end+3:], "\n")
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j]
	}
	return s[:start] + rest, commands
}

// composeComments are the comment lines of docker-compose.yml, without the leading "#".
func composeComments(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "#") {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(l, "#")))
		}
	}
	return strings.Join(out, "\n")
}

// The README's compose commands are the ones the file's header gives, word for word, and
// the services and ports it names are the file's: Temporal with its UI, the API and
// Mailpit start where the README says.
func TestComposeMatchesREADME(t *testing.T) {
	p := project(t)
	para, commands := readmeCompose(t)
	comments := composeComments(t)
	if len(commands) < 2 {
		t.Fatalf("README compose commands: %q", commands)
	}
	for _, c := range commands {
		if !strings.Contains(comments, c) {
			t.Errorf("the README's command %q is not in docker-compose.yml's header", c)
		}
	}
	// Inline commands of the paragraph (`docker compose …`) too.
	for _, m := range regexp.MustCompile("`(docker compose [^`]+)`").FindAllStringSubmatch(para, -1) {
		if !strings.Contains(comments, m[1]) {
			t.Errorf("the README's command %q is not in docker-compose.yml's header", m[1])
		}
		if f := strings.Fields(m[1]); len(f) > 3 && f[2] == "run" {
			for _, svc := range f[3:] {
				if !strings.HasPrefix(svc, "-") {
					if _, ok := p.Services[svc]; !ok {
						t.Errorf("%q runs service %q, which the file lacks", m[1], svc)
					}
					break
				}
			}
		}
	}
	// What the README says starts where: service, host port, container port.
	for _, w := range []struct {
		words, service, port string
		target               uint32
	}{
		{"Temporal with its UI (:8233)", "temporal-ui", "8233", 8080},
		{"`herald api` (:8080)", "api", "8080", 8080},
		{"Mailpit (SMTP catcher, UI on :8025)", "mailpit", "8025", 8025},
		{"`herald migrate`", "migrate", "", 0},
		{"`herald worker`", "worker", "", 0},
		{"Postgres", "postgres", "5432", 5432},
	} {
		if !strings.Contains(para, w.words) {
			t.Errorf("the README no longer says %q (update this test with it)", w.words)
		}
		if _, ok := p.Services[w.service]; !ok {
			t.Errorf("the README names %s; the file has no service %q", w.words, w.service)
		} else if w.port != "" && !published(p, w.service, w.port, w.target) {
			t.Errorf("the README puts %s on :%s; the file does not publish it", w.service, w.port)
		}
	}
	// Every port the README or the file's header names is published by some service.
	for _, m := range regexp.MustCompile(`(?:localhost|\(|\s):(\d{4,5})\b`).FindAllStringSubmatch(para+"\n"+comments, -1) {
		found := false
		for name := range p.Services {
			if published(p, name, m[1], 0) {
				found = true
			}
		}
		if !found {
			t.Errorf("port :%s is named in the README or the file's header but published by no service", m[1])
		}
	}
	// Temporal, its UI and the herald services find each other, and system mail goes to
	// Mailpit's SMTP port.
	if got := p.Services["temporal-ui"].Environment["TEMPORAL_ADDRESS"]; got == nil || !strings.HasPrefix(*got, "temporal:7233") {
		t.Errorf("temporal-ui TEMPORAL_ADDRESS %v", got)
	}
	for _, s := range []string{"api", "worker", "migrate"} {
		e := p.Services[s].Environment
		for k, want := range map[string]string{"HERALD_TEMPORAL_ADDRESS": "temporal:7233", "HERALD_SMTP_HOST": "mailpit", "HERALD_SMTP_PORT": "1025"} {
			if e[k] == nil || *e[k] != want {
				t.Errorf("%s: %s=%v, want %s", s, k, e[k], want)
			}
		}
		if e["HERALD_DATABASE_URL"] == nil || !strings.Contains(*e["HERALD_DATABASE_URL"], "@postgres:5432/") {
			t.Errorf("%s: HERALD_DATABASE_URL does not point at the postgres service", s)
		}
	}
	if !published(p, "mailpit", "1025", 1025) {
		t.Error("mailpit does not publish its SMTP port 1025")
	}
	if !strings.HasPrefix(p.Services["temporal"].Image, "temporalio/auto-setup:") || !strings.HasPrefix(p.Services["temporal-ui"].Image, "temporalio/ui:") ||
		!strings.HasPrefix(p.Services["mailpit"].Image, "axllent/mailpit:") {
		t.Errorf("images: temporal %s, temporal-ui %s, mailpit %s", p.Services["temporal"].Image, p.Services["temporal-ui"].Image, p.Services["mailpit"].Image)
	}
}

// docs/deployment.md's table of what the file runs lists every service, and only those.
func TestComposeMatchesDeploymentDoc(t *testing.T) {
	p := project(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "deployment.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## What `docker-compose.yml` runs")
	if i < 0 {
		t.Fatal("docs/deployment.md lacks its compose section")
	}
	s = s[i+5:]
	if j := strings.Index(s, "\n## "); j >= 0 {
		s = s[:j]
	}
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|").FindAllStringSubmatch(s, -1) {
		listed = append(listed, m[1])
	}
	slices.Sort(listed)
	names := p.ServiceNames()
	slices.Sort(names)
	if !slices.Equal(listed, names) {
		t.Errorf("docs/deployment.md lists %v; the file runs %v", listed, names)
	}
	// And the ports it names are published.
	for _, m := range regexp.MustCompile(`:(\d{4})\b`).FindAllStringSubmatch(s, -1) {
		n, _ := strconv.Atoi(m[1])
		found := false
		for name := range p.Services {
			found = found || published(p, name, m[1], 0) || (n > 0 && published(p, name, m[1], uint32(n)))
		}
		if !found {
			t.Errorf("docs/deployment.md names port :%s, which no service publishes", m[1])
		}
	}
}
