package config

import (
	"strings"
	"testing"
	"time"
)

func TestLimitSettings(t *testing.T) {
	c, err := Load(func(string) string { return "" })
	if err != nil || c.SendRateLimit != 0 || c.SendRateBurst != 0 || c.RequestTimeout != 30*time.Second {
		t.Fatalf("defaults: %v %v %v %v", c.SendRateLimit, c.SendRateBurst, c.RequestTimeout, err)
	}
	env := map[string]string{"HERALD_SEND_RATE_LIMIT": "12.5", "HERALD_SEND_RATE_BURST": "40", "HERALD_REQUEST_TIMEOUT": "5s"}
	c, err = Load(func(k string) string { return env[k] })
	if err != nil || c.SendRateLimit != 12.5 || c.SendRateBurst != 40 || c.RequestTimeout != 5*time.Second {
		t.Fatalf("Load = %v %v %v, %v", c.SendRateLimit, c.SendRateBurst, c.RequestTimeout, err)
	}
	env = map[string]string{"HERALD_SEND_RATE_LIMIT": "fast", "HERALD_SEND_RATE_BURST": "-1", "HERALD_REQUEST_TIMEOUT": "soon"}
	_, err = Load(func(k string) string { return env[k] })
	for _, want := range []string{
		`HERALD_SEND_RATE_LIMIT must be a number of sends per second (0 for no limit), got "fast"`,
		`HERALD_SEND_RATE_BURST must be an integer of at least 0, got "-1"`,
		`HERALD_REQUEST_TIMEOUT must be a duration such as 500ms or 2s, got "soon"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}
