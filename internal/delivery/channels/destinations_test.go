package channels

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/all"
	"github.com/heraldhq/herald/internal/providers/configschema"
	"github.com/heraldhq/herald/internal/providers/smtp"
	"github.com/heraldhq/herald/internal/providers/webhook"
)

const refusal = ": Herald does not connect to loopback, private or link-local addresses unless the operator adds the host to HERALD_PRIVATE_HOSTS"

// Destinations are checked at save against the guard of the service's deps; the
// problems come with the schema's, in one 400, and nothing is stored.
func TestDestinationsAreCheckedAtSave(t *testing.T) {
	f := setup(t)
	f.svc.catalogue = providers.NewCatalogue(append(all.Kinds(), smtp.Kind(), webhook.Kind())...)
	ctx := context.Background()
	for _, tc := range []struct {
		channel, provider, config string
		want                      []string
	}{
		{"email", "smtp", `{"host":"10.1.2.3","from":"a@b.test"}`, []string{"config.host: address 10.1.2.3 is not public" + refusal}},
		{"email", "smtp", `{"host":"fe80::1","from":"a@b.test"}`, []string{"config.host: address fe80::1 is not public" + refusal}},
		{"email", "smtp", `{"host":"mail.localhost","from":"a@b.test"}`, []string{"config.host: mail.localhost resolves to 127.0.0.1, an address that is not public" + refusal}},
		{"email", "smtp", `{"host":"smtp.example.com:587","from":"a@b.test"}`, []string{"config.host must be a host name or an IP address (no scheme, no port: set config.port)"}},
		{"email", "smtp", `{"host":"unix:///var/run/smtp.sock","from":"a@b.test"}`, []string{"config.host must be a host name or an IP address (no scheme, no port: set config.port)"}},
		{"webhook", "webhook", `{"url":"http://[fd00::5]:8080/x","secret":"0123456789abcdef"}`, []string{"config.url: address fd00::5 is not public" + refusal}},
		{"webhook", "webhook", `{"url":"ftp://files.example.com/x","secret":"0123456789abcdef"}`, []string{"config.url must be an http or https URL"}},
		{"email", "sendgrid", `{"apiKey":"k","from":"a@b.test","baseUrl":"http://169.254.169.254"}`, []string{"config.baseUrl: address 169.254.169.254 is not public" + refusal}},
		{"slack", "slack", `{"webhookUrl":"http://127.0.0.1/hook","baseUrl":"http://100.100.100.200/api"}`, []string{
			"config.baseUrl: address 100.100.100.200 is not public" + refusal, "config.webhookUrl: address 127.0.0.1 is not public" + refusal}},
	} {
		_, err := f.svc.CreateInstance(ctx, f.app, tc.channel, InstanceInput{Provider: tc.provider, Config: json.RawMessage(tc.config)})
		if err == nil {
			t.Errorf("%s %s saved", tc.provider, tc.config)
			continue
		}
		if got := problems(t, err); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.provider, tc.config, got, tc.want)
		}
	}
	if list, _ := f.svc.ListInstances(ctx, f.app, ""); len(list) != 0 {
		t.Errorf("refused configurations were stored: %+v", list)
	}
}

// HERALD_PRIVATE_HOSTS lets listed hosts through, for one port when the entry names it.
func TestAllowListedDestinations(t *testing.T) {
	f := setup(t)
	f.svc.catalogue = providers.NewCatalogue(append(all.Kinds(), smtp.Kind(), webhook.Kind())...)
	f.svc.deps.Guard = netguard.New(netguard.PrivateHostsSetting, []string{"10.1.2.3", "::1", "relay.internal.example:2525"})
	ctx := context.Background()
	for _, cfg := range []string{
		`{"host":"10.1.2.3","from":"a@b.test"}`, `{"host":"::1","port":25,"from":"a@b.test"}`, `{"host":"[::1]","from":"a@b.test"}`,
	} {
		if _, err := f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "smtp", Name: cfg, Config: json.RawMessage(cfg)}); err != nil {
			t.Errorf("%s: %v", cfg, err)
		}
	}
	if _, err := f.svc.CreateInstance(ctx, f.app, "webhook", InstanceInput{Provider: "webhook", Config: json.RawMessage(`{"url":"http://[::1]:8080/x","secret":"0123456789abcdef"}`)}); err != nil {
		t.Errorf("allow-listed IPv6 webhook: %v", err)
	}
	// The guard sees the configured port (or the schema's default, 587, when unset).
	_, err := f.svc.CreateInstance(ctx, f.app, "email", InstanceInput{Provider: "smtp", Name: "relay", Config: json.RawMessage(`{"host":"relay.internal.example","port":2525,"from":"a@b.test"}`)})
	if err != nil {
		t.Errorf("relay on its allowed port: %v", err)
	}
	if got := port(mustSchema(t, smtp.Kind().ConfigSchema), map[string]json.RawMessage{}); got != "587" {
		t.Errorf("default port %q", got)
	}
}

func mustSchema(t *testing.T, raw json.RawMessage) *configschema.Schema {
	t.Helper()
	s, err := configschema.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A published configuration is applied without DNS: an address literal the guard refuses
// is a stored problem (the instance is then disabled with a warning); names pass.
func TestStoredProblemsNameRefusedDestinations(t *testing.T) {
	f := setup(t)
	cfg := func(url string) json.RawMessage {
		return json.RawMessage(`{"url":"` + url + `","secret":"0123456789abcdef"}`)
	}
	got := f.svc.StoredProblems("webhook", cfg("http://[fd00::5]:8080/x"), nil)
	if want := []string{"config.url: address fd00::5 is not public" + refusal}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q", got)
	}
	for _, url := range []string{"https://hooks.example.com/x", "http://hooks.corp.example/x"} {
		if got := f.svc.StoredProblems("webhook", cfg(url), nil); len(got) != 0 {
			t.Errorf("%s: %q", url, got)
		}
	}
	f.svc.deps.Guard = netguard.New("", []string{"fd00::5"})
	if got := f.svc.StoredProblems("webhook", cfg("http://[fd00::5]:8080/x"), nil); len(got) != 0 {
		t.Errorf("allow-listed: %q", got)
	}
}
