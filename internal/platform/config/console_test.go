package config

import (
	"slices"
	"strings"
	"testing"
)

func TestConsoleSettings(t *testing.T) {
	env := map[string]string{
		"HERALD_CONSOLE_URL":            "https://console.example.com/app",
		"HERALD_SMTP_HOST":              "smtp.example.com",
		"HERALD_SMTP_PORT":              "2525",
		"HERALD_SIGNIN_LOCK":            "5m",
		"HERALD_FILES_MAX_BYTES":        "1024",
		"HERALD_CODEHOST_CLIENT_ID":     "id",
		"HERALD_CODEHOST_CLIENT_SECRET": "secret",
	}
	c, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	cc := c.Console
	if !slices.Equal(cc.Origins, []string{"https://console.example.com"}) || cc.SMTPPort != 2525 || cc.SignInLock.Minutes() != 5 || cc.FilesMaxBytes != 1024 {
		t.Errorf("console config %+v", cc)
	}
	env["HERALD_CONSOLE_ORIGINS"] = "https://a.example.com, http://localhost:3000/"
	if c, _ = Load(func(k string) string { return env[k] }); !slices.Equal(c.Console.Origins, []string{"https://a.example.com", "http://localhost:3000"}) {
		t.Errorf("origins %v", c.Console.Origins)
	}

	bad := map[string]string{
		"HERALD_CONSOLE_ORIGINS":    "https://a.example.com/path",
		"HERALD_SMTP_TLS":           "maybe",
		"HERALD_FILES_MAX_BYTES":    "999999999",
		"HERALD_CODEHOST_CLIENT_ID": "id",
		"HERALD_CONSOLE_ACCESS_TTL": "-1s",
	}
	_, err = Load(func(k string) string { return bad[k] })
	for _, want := range []string{"HERALD_CONSOLE_ORIGINS", "HERALD_SMTP_TLS", "HERALD_FILES_MAX_BYTES", "HERALD_CODEHOST_CLIENT_SECRET", "HERALD_CONSOLE_ACCESS_TTL"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not name %s", err, want)
		}
	}
}

func TestAuditRetention(t *testing.T) {
	c, err := Load(func(string) string { return "" })
	if err != nil || c.Console.AuditRetention.Hours() != 365*24 {
		t.Fatalf("default retention %v (%v)", c.Console.AuditRetention, err)
	}
	for v, hours := range map[string]float64{"90d": 90 * 24, "720h": 720, " 1d ": 24} {
		c, err := Load(func(k string) string {
			if k == "HERALD_AUDIT_RETENTION" {
				return v
			}
			return ""
		})
		if err != nil || c.Console.AuditRetention.Hours() != hours {
			t.Errorf("%q: %v (%v)", v, c.Console.AuditRetention, err)
		}
	}
	for _, v := range []string{"0d", "-5d", "1.5d", "10m", "forever", "d"} {
		_, err := Load(func(k string) string {
			if k == "HERALD_AUDIT_RETENTION" {
				return v
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), "HERALD_AUDIT_RETENTION must be a duration of at least 1h") {
			t.Errorf("%q accepted (%v)", v, err)
		}
	}
}
