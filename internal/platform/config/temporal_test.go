package config

import (
	"strings"
	"testing"
	"time"
)

func TestTemporalClientSettings(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		tls     bool
		problem []string // each must appear in the error; none: Load succeeds
	}{
		{"plaintext by default", nil, false, nil},
		{"TLS with system roots", map[string]string{"HERALD_TEMPORAL_TLS": "true"}, true, nil},
		{"a CA turns TLS on", map[string]string{"HERALD_TEMPORAL_TLS_CA_FILE": "/ca.pem"}, true, nil},
		{"a server name turns TLS on", map[string]string{"HERALD_TEMPORAL_TLS_SERVER_NAME": "temporal.internal"}, true, nil},
		{"mutual TLS", map[string]string{"HERALD_TEMPORAL_TLS_CERT_FILE": "/c.pem", "HERALD_TEMPORAL_TLS_KEY_FILE": "/k.pem"}, true, nil},
		{"an API key turns TLS on (Temporal Cloud requires it)", map[string]string{"HERALD_TEMPORAL_API_KEY": "key"}, true, nil},
		{"an API key over an explicitly plaintext connection", map[string]string{"HERALD_TEMPORAL_API_KEY": "key", "HERALD_TEMPORAL_TLS": "false"}, false, nil},
		{"certificate without key", map[string]string{"HERALD_TEMPORAL_TLS_CERT_FILE": "/c.pem"}, true,
			[]string{"HERALD_TEMPORAL_TLS_CERT_FILE is set but HERALD_TEMPORAL_TLS_KEY_FILE is not"}},
		{"key without certificate", map[string]string{"HERALD_TEMPORAL_TLS_KEY_FILE": "/k.pem"}, true,
			[]string{"HERALD_TEMPORAL_TLS_KEY_FILE is set but HERALD_TEMPORAL_TLS_CERT_FILE is not"}},
		{"TLS off with a CA", map[string]string{"HERALD_TEMPORAL_TLS": "false", "HERALD_TEMPORAL_TLS_CA_FILE": "/ca.pem"}, false,
			[]string{"HERALD_TEMPORAL_TLS is false but"}},
		{"RPC timeout above the SDK's bound", map[string]string{"HERALD_TEMPORAL_RPC_TIMEOUT": "1m"}, false,
			[]string{`HERALD_TEMPORAL_RPC_TIMEOUT must be a duration from 1s to 10s, got "1m"`}},
		{"every problem at once", map[string]string{"HERALD_TEMPORAL_TLS_CERT_FILE": "/c.pem", "HERALD_TEMPORAL_CONNECT_TIMEOUT": "10ms"}, true,
			[]string{"HERALD_TEMPORAL_TLS_KEY_FILE is not", "HERALD_TEMPORAL_CONNECT_TIMEOUT must be a duration of at least 1s"}},
	}
	for _, tc := range cases {
		c, err := Load(env(tc.env))
		if len(tc.problem) == 0 {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
		} else {
			if err == nil {
				t.Errorf("%s: accepted", tc.name)
				continue
			}
			for _, want := range tc.problem {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %v, want it to say %q", tc.name, err, want)
				}
			}
			continue
		}
		if c.TemporalClient.TLS != tc.tls {
			t.Errorf("%s: TLS %v, want %v", tc.name, c.TemporalClient.TLS, tc.tls)
		}
	}
	d := Defaults().TemporalClient
	if d.ConnectTimeout != 10*time.Second || d.RPCTimeout != 10*time.Second {
		t.Errorf("default timeouts %v %v", d.ConnectTimeout, d.RPCTimeout)
	}
}

func TestTemporalAPIKeyIsNeverShown(t *testing.T) {
	c, err := Load(env(map[string]string{"HERALD_TEMPORAL_API_KEY": "very-secret-cloud-key"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range c.Summary() {
		if s, ok := v.(string); ok && strings.Contains(s, "very-secret") {
			t.Errorf("summary shows the API key: %v", c.Summary())
		}
	}
	for _, cur := range Resolve(env(map[string]string{"HERALD_TEMPORAL_API_KEY": "very-secret-cloud-key"})) {
		if cur.Name == "HERALD_TEMPORAL_API_KEY" && cur.Value != Masked {
			t.Errorf("herald config shows %q", cur.Value)
		}
	}
}
