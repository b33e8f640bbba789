package config

import (
	"strings"
	"testing"
	"time"
)

func TestRealtimeSettings(t *testing.T) {
	env := map[string]string{
		"HERALD_REALTIME_PING_INTERVAL": "10s", "HERALD_REALTIME_PING_TIMEOUT": "5s",
		"HERALD_REALTIME_QUEUE": "8", "HERALD_REALTIME_TOKEN_TTL": "1h", "HERALD_PUBLIC_URL": "https://h.example.com",
	}
	c, err := Load(func(k string) string { return env[k] })
	if err != nil || c.RealtimePingInterval != 10*time.Second || c.RealtimePingTimeout != 5*time.Second ||
		c.RealtimeQueue != 8 || c.RealtimeTokenTTL != time.Hour || c.PublicURL != "https://h.example.com" {
		t.Fatalf("Load = %+v, %v", c, err)
	}
	env = map[string]string{"HERALD_REALTIME_QUEUE": "0", "HERALD_REALTIME_PING_INTERVAL": "1ms"}
	_, err = Load(func(k string) string { return env[k] })
	for _, want := range []string{`HERALD_REALTIME_QUEUE must be an integer of at least 1, got "0"`, `HERALD_REALTIME_PING_INTERVAL must be a duration of at least 100ms such as 2s or 15m, got "1ms"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}
