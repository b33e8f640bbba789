package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
)

func TestConfigCommandMasksSecrets(t *testing.T) {
	env := map[string]string{
		"HERALD_SECRET_KEY": "s3cret-key-0123456789-abcdefghijkl", "HERALD_SMTP_PASSWORD": "smtp-pw-value",
		"HERALD_DATABASE_URL": "postgres://herald:db-pw-value@db/herald", "HERALD_HTTP_ADDR": "0.0.0.0:9999",
	}
	var out, errOut bytes.Buffer
	if err := run(t.Context(), []string{"config"}, func(k string) string { return env[k] }, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"s3cret-key-0123456789", "smtp-pw-value", "db-pw-value"} {
		if strings.Contains(out.String()+errOut.String(), secret) {
			t.Errorf("herald config shows %q", secret)
		}
	}
	for _, want := range []string{"HERALD_SECRET_KEY", config.Masked, "postgres://herald:***@db/herald", "0.0.0.0:9999", "HERALD_AUDIT_RETENTION"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("herald config lacks %q:\n%s", want, out.String())
		}
	}
}

// Bad settings are listed after the table, all of them, and the command fails.
func TestConfigCommandReportsBadValues(t *testing.T) {
	env := map[string]string{"HERALD_DB_MAX_CONNS": "many", "HERALD_SMTP_TLS": "maybe"}
	var out bytes.Buffer
	err := run(t.Context(), []string{"config"}, func(k string) string { return env[k] }, &out, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "HERALD_DB_MAX_CONNS must be an integer") || !strings.Contains(err.Error(), "HERALD_SMTP_TLS must be") {
		t.Errorf("err = %v", err)
	}
	if !strings.Contains(out.String(), "HERALD_DB_MAX_CONNS") {
		t.Errorf("no table:\n%s", out.String())
	}
}

func TestConfigCommandMarkdown(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"config", "--markdown"}, func(string) string { return "" }, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if out.String() != config.Markdown() || !strings.HasPrefix(out.String(), "# Configuration") {
		t.Errorf("markdown output %.200s", out.String())
	}
	if err := run(t.Context(), []string{"config", "--html"}, func(string) string { return "" }, &out, &bytes.Buffer{}); !errors.Is(err, errUsage) {
		t.Errorf("--html: %v", err)
	}
}

func TestWorkerQueuesFlag(t *testing.T) {
	cfg := config.Defaults()
	if err := workerFlags(&cfg, []string{"--queues", "email, webhook"}); err != nil || strings.Join(cfg.WorkerQueues, ",") != "email,webhook" {
		t.Fatalf("queues %v, %v", cfg.WorkerQueues, err)
	}
	if err := workerFlags(&cfg, []string{"--queues=fax"}); err == nil || !strings.Contains(err.Error(), `unknown queue kind "fax"`) {
		t.Errorf("bad kind: %v", err)
	}
	if err := workerFlags(&cfg, []string{"extra"}); !errors.Is(err, errUsage) {
		t.Errorf("extra argument: %v", err)
	}
}
