package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"testing"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/cli"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/ops/doctor"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/visibility"
)

// doctorReport is the --json document of herald doctor.
type doctorReport struct {
	OK       bool                 `json:"ok"`
	Counts   map[doctor.Level]int `json:"counts"`
	Findings []doctor.Finding     `json:"findings"`
}

// goodDoctorEnv is a production-like configuration whose every check passes: a fresh
// migrated database, the shared Temporal dev server with Herald's search attributes, system
// mail, an https public URL.
func goodDoctorEnv(t *testing.T) map[string]string {
	t.Helper()
	tmp := stacktest.SharedTemporal(t)
	c, err := client.Dial(client.Options{HostPort: tmp.Address, Namespace: "default"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := visibility.Register(t.Context(), c, "default"); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"HERALD_SECRET_KEY":         secrets.Token(32),
		"HERALD_DATABASE_URL":       dbtest.URL(t),
		"HERALD_TEMPORAL_ADDRESS":   tmp.Address,
		"HERALD_TEMPORAL_NAMESPACE": "default",
		"HERALD_HTTP_ADDR":          "0.0.0.0:8080",
		"HERALD_PUBLIC_URL":         "https://herald.example.com",
		"HERALD_SMTP_HOST":          "smtp.example.com",
		"HERALD_SMTP_FROM":          "Herald <no-reply@example.com>",
	}
}

// runDoctorCmd runs `herald doctor --json` with env and parses its report.
func runDoctorCmd(t *testing.T, env map[string]string) (doctorReport, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(t.Context(), []string{"doctor", "--json"}, func(k string) string { return env[k] }, &out, &errOut)
	var r doctorReport
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil {
		t.Fatalf("--json does not parse: %v\n%s", jerr, out.String())
	}
	if err != nil && !errors.Is(err, cli.ErrFailed) {
		t.Fatalf("herald doctor: %v", err)
	}
	// main exits 1 on cli.ErrFailed: the report must fail exactly when a finding does.
	if failed := errors.Is(err, cli.ErrFailed); failed != (r.Counts[doctor.Fail] > 0) || r.OK == failed {
		t.Errorf("exit failed=%v but %d FAIL findings, ok=%v", failed, r.Counts[doctor.Fail], r.OK)
	}
	return r, err
}

// levelOf is the level of the check's finding (the worst when it has several).
func levelOf(r doctorReport, check string) doctor.Level {
	var got doctor.Level
	for _, f := range r.Findings {
		if f.Check == check && (got == "" || f.Level == doctor.Fail || (f.Level == doctor.Warn && got == doctor.OK)) {
			got = f.Level
		}
	}
	return got
}

func TestDoctorGoodConfiguration(t *testing.T) {
	r, err := runDoctorCmd(t, goodDoctorEnv(t))
	if err != nil || !r.OK {
		t.Fatalf("err %v, report %+v", err, r.Findings)
	}
	for _, check := range []string{"config", "secret-key", "smtp", "public-url", "origins", "database", "migrations", "apps", "temporal", "namespace", "search-attributes", "codec-key"} {
		if got := levelOf(r, check); got != doctor.OK {
			t.Errorf("%s: %q, want OK (%+v)", check, got, r.Findings)
		}
	}
	for _, f := range r.Findings {
		if f.Level != doctor.OK {
			t.Errorf("finding %+v on a good configuration", f)
		}
	}
	t.Logf("good configuration: %d findings, all OK", len(r.Findings))
}

// TestDoctorBadConfigurations breaks one thing at a time and checks the finding it gives.
func TestDoctorBadConfigurations(t *testing.T) {
	good := goodDoctorEnv(t)
	with := func(kv ...string) map[string]string {
		env := maps.Clone(good)
		for i := 0; i < len(kv); i += 2 {
			env[kv[i]] = kv[i+1]
		}
		return env
	}
	behind := dbtest.URL(t)
	d, err := db.Open(t.Context(), behind, db.PoolSize{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	versions := db.Versions()
	if _, err := d.Pool.Exec(t.Context(), "DELETE FROM goose_db_version WHERE version_id = $1", versions[len(versions)-1]); err != nil {
		t.Fatal(err)
	}
	d.Close()
	insecure := dbtest.URL(t)
	d, err = db.Open(t.Context(), insecure, db.PoolSize{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	box, err := secrets.NewBox(good["HERALD_SECRET_KEY"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apps.NewService(d, box).Create(t.Context(), "Open Shop"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	tmp := stacktest.SharedTemporal(t)
	bare := "doctor-" + strings.ToLower(secrets.HexToken(4))
	c, err := client.Dial(client.Options{HostPort: tmp.Address})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.WorkflowService().RegisterNamespace(t.Context(), &workflowservice.RegisterNamespaceRequest{
		Namespace: bare, WorkflowExecutionRetentionPeriod: durationpb.New(24 * 3600 * 1e9)}); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name  string
		env   map[string]string
		check string
		want  doctor.Level
		says  string
	}{
		{"published secret key", with("HERALD_SECRET_KEY", "0123456789abcdef0123456789abcdef"), "secret-key", doctor.Fail, "published"},
		{"short secret key", with("HERALD_SECRET_KEY", "short"), "secret-key", doctor.Fail, "at least 32"},
		{"bad setting", with("HERALD_DB_MAX_CONNS", "many"), "config", doctor.Fail, "HERALD_DB_MAX_CONNS"},
		{"unreachable database", with("HERALD_DATABASE_URL", "postgres://postgres@127.0.0.1:1/herald?sslmode=disable&connect_timeout=2"), "database", doctor.Fail, "cannot reach"},
		{"database behind on migrations", with("HERALD_DATABASE_URL", behind), "migrations", doctor.Fail, fmt.Sprintf("%05d", versions[len(versions)-1])},
		{"unreachable Temporal", with("HERALD_TEMPORAL_ADDRESS", "127.0.0.1:1"), "temporal", doctor.Fail, "cannot reach Temporal"},
		{"missing namespace", with("HERALD_TEMPORAL_NAMESPACE", "no-such-namespace"), "namespace", doctor.Fail, "does not exist"},
		{"missing search attributes", with("HERALD_TEMPORAL_NAMESPACE", bare), "search-attributes", doctor.Warn, "HeraldAppId"},
		{"no SMTP", with("HERALD_SMTP_HOST", ""), "smtp", doctor.Warn, "HERALD_SMTP_HOST is unset"},
		{"http origin next to an https public URL", with("HERALD_CONSOLE_ORIGINS", "https://herald.example.com,http://console.example.com"), "origins", doctor.Fail, "http://console.example.com"},
		{"origin not the public URL's", with("HERALD_CONSOLE_URL", "https://console.example.com", "HERALD_CONSOLE_ORIGINS", "https://other.example.com"), "origins", doctor.Warn, "https://console.example.com"},
		{"no public URL in production", with("HERALD_PUBLIC_URL", ""), "public-url", doctor.Warn, "HERALD_PUBLIC_URL is unset"},
		{"insecure app", with("HERALD_DATABASE_URL", insecure), "apps", doctor.Warn, `"Open Shop"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := runDoctorCmd(t, tc.env)
			if got := levelOf(r, tc.check); got != tc.want {
				t.Fatalf("%s: %q, want %s (%+v)", tc.check, got, tc.want, r.Findings)
			}
			for _, f := range r.Findings {
				if f.Check == tc.check && f.Level == tc.want {
					if !strings.Contains(f.Message, tc.says) {
						t.Errorf("%s says %q, want it to name %q", tc.check, f.Message, tc.says)
					}
					if f.Fix == "" {
						t.Errorf("%s: no fix", tc.check)
					}
				}
			}
		})
	}
}

// TestDoctorTable checks the human form: a table without colours off a terminal, the fix
// under its finding, and the exit status.
func TestDoctorTable(t *testing.T) {
	env := goodDoctorEnv(t)
	env["HERALD_TEMPORAL_ADDRESS"] = "127.0.0.1:1"
	var out, errOut bytes.Buffer
	err := run(t.Context(), []string{"doctor"}, func(k string) string { return env[k] }, &out, &errOut)
	if !errors.Is(err, cli.ErrFailed) {
		t.Fatalf("err %v, want cli.ErrFailed (exit status 1)", err)
	}
	s := out.String()
	for _, want := range []string{"LEVEL", "CHECK", "FINDING", "FAIL", "temporal", "→ fix: Start Temporal", "0 fail"[1:]} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b[") {
		t.Errorf("colours off a terminal:\n%q", s)
	}
	if err := run(t.Context(), []string{"doctor", "extra"}, func(string) string { return "" }, &out, &errOut); !errors.Is(err, errUsage) {
		t.Errorf("doctor extra: %v, want a usage error", err)
	}
}
