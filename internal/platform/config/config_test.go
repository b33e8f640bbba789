package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaultsNeedNoEnvironment(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTPAddr != "127.0.0.1:8080" || c.HeaderPrefix != "X-SERVICE-" || c.RelayPackSize != 100 || len(c.TrustedProxies) != 0 {
		t.Errorf("defaults: %+v", c)
	}
}

func TestEveryBadValueIsReported(t *testing.T) {
	_, err := Load(env(map[string]string{
		"HERALD_DB_MAX_CONNS":        "many",
		"HERALD_RELAY_PACK_WINDOW":   "soon",
		"HERALD_LOG_LEVEL":           "loud",
		"HERALD_HEADER_PREFIX":       "X-HERALD",
		"HERALD_TRUSTED_PROXIES":     "10.0.0.1, 10.1.0.0/16, proxy.local",
		"HERALD_RELAY_POLL_INTERVAL": "0s",
		"HERALD_PRIVATE_HOSTS":       "mail.internal, https://hooks.internal/x, relay.internal:smtp, [::1]:2525",
		"HERALD_RELAY_BUSY_RUNS":     "20",
	}))
	if err == nil {
		t.Fatal("bad values accepted")
	}
	if strings.Contains(err.Error(), "mail.internal") || strings.Contains(err.Error(), "[::1]:2525") {
		t.Errorf("a valid HERALD_PRIVATE_HOSTS entry reported: %v", err)
	}
	for _, want := range []string{
		`HERALD_DB_MAX_CONNS must be an integer of at least 2, got "many"`,
		`HERALD_RELAY_PACK_WINDOW must be a duration such as 500ms or 2s, got "soon"`,
		`HERALD_LOG_LEVEL must be debug, info, warn or error, got "loud"`,
		`HERALD_HEADER_PREFIX must end with '-', got "X-HERALD"`,
		`HERALD_TRUSTED_PROXIES: "proxy.local" is neither an IP address nor a CIDR range`,
		`HERALD_RELAY_POLL_INTERVAL must be a positive duration such as 15m or 720h, got "0s"`,
		`HERALD_PRIVATE_HOSTS: "https://hooks.internal/x" is not a host (write a host name or address, without scheme or path)`,
		`HERALD_PRIVATE_HOSTS: "relay.internal:smtp": the port must be a number from 1 to 65535`,
		`HERALD_RELAY_BUSY_RUNS was renamed HERALD_RELAY_BUSY_SENDS; set that instead`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
}

func TestLists(t *testing.T) {
	c, err := Load(env(map[string]string{
		"HERALD_TRUSTED_PROXIES":   " 10.0.0.1 ,,10.1.0.0/16",
		"HERALD_PRIVATE_HOSTS":     "mail.internal, *.corp.example",
		"HERALD_RELAY_PACK_WINDOW": "2ms",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.TrustedProxies, []string{"10.0.0.1", "10.1.0.0/16"}) || !slices.Equal(c.PrivateHosts, []string{"mail.internal", "*.corp.example"}) || c.RelayPackWindow != 2*time.Millisecond {
		t.Errorf("%+v", c)
	}
}

func TestMaskURL(t *testing.T) {
	if got := MaskURL("postgres://herald:s3cret@db:5432/herald"); got != "postgres://herald:***@db:5432/herald" {
		t.Errorf("got %s", got)
	}
	if got := MaskURL("postgres://herald@db/herald"); got != "postgres://herald@db/herald" {
		t.Errorf("got %s", got)
	}
}
