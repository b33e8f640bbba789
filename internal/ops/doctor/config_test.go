package doctor

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
)

func load(t *testing.T, env map[string]string) config.Config {
	t.Helper()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// worst is the level of check among findings (the worst of several).
func worst(fs []Finding, check string) Level {
	var got Level
	rank := map[Level]int{"": 0, OK: 1, Warn: 2, Fail: 3}
	for _, f := range fs {
		if f.Check == check && rank[f.Level] > rank[got] {
			got = f.Level
		}
	}
	return got
}

func TestConfigFindings(t *testing.T) {
	prod := map[string]string{"HERALD_HTTP_ADDR": "0.0.0.0:8080", "HERALD_PUBLIC_URL": "https://herald.example.com",
		"HERALD_SMTP_HOST": "smtp.example.com", "HERALD_SMTP_FROM": "Herald <no-reply@example.com>"}
	with := func(kv ...string) map[string]string {
		env := map[string]string{}
		for k, v := range prod {
			env[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			env[kv[i]] = kv[i+1]
		}
		return env
	}
	cases := []struct {
		name  string
		env   map[string]string
		check string
		want  Level
	}{
		{"production, consistent", prod, "origins", OK},
		{"production, smtp", prod, "smtp", OK},
		{"local dev without public URL", map[string]string{}, "public-url", OK},
		{"exposed without public URL", with("HERALD_PUBLIC_URL", ""), "public-url", Warn},
		{"plain http public URL", with("HERALD_PUBLIC_URL", "http://herald.example.com"), "public-url", Warn},
		{"http on localhost is fine", map[string]string{"HERALD_PUBLIC_URL": "http://localhost:8080"}, "public-url", OK},
		{"http origin beside https", with("HERALD_CONSOLE_ORIGINS", "http://herald.example.com"), "origins", Fail},
		{"http loopback origin beside https (a developer's console)", with("HERALD_CONSOLE_ORIGINS", "https://herald.example.com,http://localhost:5173"), "origins", OK},
		{"console URL not an origin", with("HERALD_CONSOLE_URL", "https://console.example.com", "HERALD_CONSOLE_ORIGINS", "https://herald.example.com"), "origins", Warn},
		{"public origin not allowed", with("HERALD_CONSOLE_ORIGINS", "https://a.example.com"), "origins", Warn},
		{"sender at localhost", with("HERALD_SMTP_FROM", "Herald <no-reply@localhost>"), "smtp", Warn},
		{"smtp without TLS", with("HERALD_SMTP_TLS", "none"), "smtp", Warn},
		{"no smtp", with("HERALD_SMTP_HOST", ""), "smtp", Warn},
	}
	for _, tc := range cases {
		d := &Doctor{Cfg: load(t, tc.env)}
		d.Cfg.SecretKey = "a-perfectly-random-key-0123456789-XYZ"
		fs := d.configFindings()
		if got := worst(fs, tc.check); got != tc.want {
			t.Errorf("%s: %s is %q, want %s (%+v)", tc.name, tc.check, got, tc.want, fs)
		}
		for _, f := range fs {
			if f.Level != OK && f.Fix == "" {
				t.Errorf("%s: %+v has no fix", tc.name, f)
			}
		}
	}
}

func TestReportForms(t *testing.T) {
	r := Report{Findings: []Finding{ok("config", "fine"), warn("smtp", "unset", "Set it."), fail("temporal", "down", "Start it.")}}
	var b bytes.Buffer
	if err := r.WriteTable(&b, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\x1b[31mFAIL\x1b[0m") || !strings.Contains(b.String(), "→ fix: Start it.") || !strings.Contains(b.String(), "1 ok, 1 warn, 1 fail") {
		t.Errorf("table:\n%s", b.String())
	}
	b.Reset()
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var j struct {
		OK       bool
		Counts   map[string]int
		Findings []Finding
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil || j.OK || j.Counts["FAIL"] != 1 || len(j.Findings) != 3 {
		t.Errorf("json %v: %s", err, b.String())
	}
	if !r.Failed() || len(r.Problems()) != 2 {
		t.Errorf("failed %v, problems %d", r.Failed(), len(r.Problems()))
	}
}
