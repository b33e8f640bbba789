package all

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/configschema"
)

// Every HTTP provider kind takes timeoutSeconds (1..60, default 30) and keeps its own keys
// in their order, the new one last.
func TestHTTPKindsTakeTimeoutSeconds(t *testing.T) {
	for _, k := range Kinds() {
		s, err := configschema.Parse(k.ConfigSchema)
		if err != nil {
			t.Fatalf("%s: %v", k.Identifier, err)
		}
		p, ok := s.Properties["timeoutSeconds"]
		if !ok || string(p.Default) != "30" || p.Secret || p.Destination != "" {
			t.Errorf("%s: timeoutSeconds %+v", k.Identifier, p)
			continue
		}
		if probs := s.Validate(json.RawMessage(`{"timeoutSeconds": 0}`), "config"); !hasProblem(probs, "timeoutSeconds") {
			t.Errorf("%s: timeoutSeconds 0 accepted: %v", k.Identifier, probs)
		}
		if probs := s.Validate(json.RawMessage(`{"timeoutSeconds": 61}`), "config"); !hasProblem(probs, "timeoutSeconds") {
			t.Errorf("%s: timeoutSeconds 61 accepted: %v", k.Identifier, probs)
		}
		last := strings.Index(string(k.ConfigSchema), `"timeoutSeconds":`)
		for name := range s.Properties {
			if name == "connectTimeoutSeconds" || name == "responseTimeoutSeconds" {
				if i := strings.Index(string(k.ConfigSchema), `"`+name+`":`); i < last {
					t.Errorf("%s: %s comes before timeoutSeconds, want it after", k.Identifier, name)
				}
				continue
			}
			if i := strings.Index(string(k.ConfigSchema), `"`+name+`":`); i > last {
				t.Errorf("%s: %s comes after timeoutSeconds, want it last", k.Identifier, name)
			}
		}
	}
}

func hasProblem(probs []string, key string) bool {
	for _, p := range probs {
		if strings.Contains(p, key) {
			return true
		}
	}
	return false
}

type nopProvider struct{}

func (nopProvider) Send(context.Context, providers.Message) (providers.Result, error) {
	return providers.Result{}, nil
}

// An instance's client is bounded by its timeoutSeconds (30 s when unset), on the
// pipeline's client (same transport) or the guard's; the pipeline's client is not changed.
func TestInstanceClientHasItsTimeout(t *testing.T) {
	var got *http.Client
	kind := withTimeout(providers.Kind{
		Identifier:   "fake",
		ConfigSchema: json.RawMessage(`{"type": "object", "properties": {"a": {"type": "string"}}}`),
		New: func(_ json.RawMessage, deps providers.Deps) (providers.Provider, error) {
			got = deps.HTTP
			return nopProvider{}, nil
		},
	})
	shared := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{}}
	for _, tc := range []struct {
		config string
		deps   providers.Deps
		want   time.Duration
	}{
		{`{"a":"x","timeoutSeconds":5}`, providers.Deps{HTTP: shared}, 5 * time.Second},
		{`{"a":"x"}`, providers.Deps{HTTP: shared}, 30 * time.Second},
		{`{"timeoutSeconds":12}`, providers.Deps{}, 12 * time.Second},
	} {
		if _, err := kind.New(json.RawMessage(tc.config), tc.deps); err != nil {
			t.Fatal(err)
		}
		if got == nil || got.Timeout != tc.want {
			t.Errorf("%s: client %+v, want timeout %s", tc.config, got, tc.want)
		}
		if tc.deps.HTTP != nil && (got == shared || got.Transport != shared.Transport) {
			t.Errorf("%s: the instance's client should be a copy on the same transport", tc.config)
		}
	}
	if shared.Timeout != 30*time.Second {
		t.Errorf("the pipeline's client was changed: %s", shared.Timeout)
	}
}
