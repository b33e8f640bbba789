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

// TestConsoleURLDefaultsToTheServer: the console is served by Herald, so emailed links
// point at the server's own address unless HERALD_CONSOLE_URL says otherwise.
func TestConsoleURLDefaultsToTheServer(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "http://127.0.0.1:8080"},
		{map[string]string{"HERALD_HTTP_ADDR": "0.0.0.0:9000"}, "http://localhost:9000"},
		{map[string]string{"HERALD_PUBLIC_URL": "https://herald.example.com/"}, "https://herald.example.com"},
		{map[string]string{"HERALD_PUBLIC_URL": "https://herald.example.com", "HERALD_CONSOLE_URL": "https://console.example.com"}, "https://console.example.com"},
	}
	for _, tc := range cases {
		c, err := Load(func(k string) string { return tc.env[k] })
		if err != nil {
			t.Fatalf("%v: %v", tc.env, err)
		}
		if c.Console.URL != tc.want || len(c.Console.Origins) != 1 || c.Console.Origins[0] != tc.want {
			t.Errorf("%v: URL %q origins %v, want %q", tc.env, c.Console.URL, c.Console.Origins, tc.want)
		}
	}
}
