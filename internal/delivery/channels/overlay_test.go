package channels

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/all"
	"github.com/heraldhq/herald/internal/providers/configschema"
	"github.com/heraldhq/herald/internal/providers/smtp"
	"github.com/heraldhq/herald/internal/providers/webhook"
)

func schemaOf(t *testing.T, identifier string) *configschema.Schema {
	t.Helper()
	kind, ok := providers.NewCatalogue(append(all.Kinds(), smtp.Kind(), webhook.Kind())...).Lookup(identifier)
	if !ok {
		t.Fatalf("no kind %s", identifier)
	}
	s, err := configschema.Parse(kind.ConfigSchema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func fields(t *testing.T, raw string) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// The merge of a send's _config over a stored instance: ordinary keys merge, a destination
// key is refused (the stored secret never reaches it), and naming a secret key makes the
// overlay the send's own complete credentials, used with nothing stored.
func TestOverlayNeverMovesAStoredSecret(t *testing.T) {
	const storedSecret = "SG.stored-api-key"
	stored := `{"apiKey":"` + storedSecret + `","from":"noreply@example.com","fromName":"Example"}`
	smtpStored := `{"host":"smtp.example.com","port":587,"username":"u","password":"stored-password","from":"noreply@example.com"}`
	for _, tc := range []struct {
		name, provider, stored, extra string
		want                          string // the resulting configuration, "" when refused
		problems                      []string
	}{
		{name: "ordinary key merges", provider: "sendgrid", stored: stored, extra: `{"fromName":"Billing"}`,
			want: `{"apiKey":"` + storedSecret + `","from":"noreply@example.com","fromName":"Billing"}`},
		{name: "base URL refused", provider: "sendgrid", stored: stored, extra: `{"baseUrl":"https://attacker.example"}`,
			problems: []string{"override.sendgrid._config.baseUrl: " + overlayAdvice}},
		{name: "base URL refused with ordinary keys beside it", provider: "sendgrid", stored: stored, extra: `{"fromName":"x","baseUrl":"https://attacker.example"}`,
			problems: []string{"override.sendgrid._config.baseUrl: " + overlayAdvice}},
		{name: "own complete credentials used alone", provider: "sendgrid", stored: stored,
			extra: `{"apiKey":"SG.mine","from":"me@example.org","baseUrl":"https://mine.example"}`,
			want:  `{"apiKey":"SG.mine","baseUrl":"https://mine.example","from":"me@example.org"}`},
		{name: "own credentials must be complete", provider: "sendgrid", stored: stored, extra: `{"apiKey":"SG.mine","baseUrl":"https://attacker.example"}`,
			problems: []string{"override.sendgrid._config.from is required"}},
		{name: "a null secret is still the send's own (missing) credentials", provider: "sendgrid", stored: stored, extra: `{"apiKey":null,"from":"me@example.org"}`,
			problems: []string{"override.sendgrid._config.apiKey is required"}},
		{name: "SMTP host and port refused", provider: "smtp", stored: smtpStored, extra: `{"host":"attacker.example","port":2525}`,
			problems: []string{"override.smtp._config.host: " + overlayAdvice, "override.smtp._config.port: " + overlayAdvice}},
		{name: "SMTP security refused", provider: "smtp", stored: smtpStored, extra: `{"security":"none"}`,
			problems: []string{"override.smtp._config.security: " + overlayAdvice}},
		{name: "SMTP from name merges", provider: "smtp", stored: smtpStored, extra: `{"fromName":"Billing","helo":"mail.example.com"}`,
			want: `{"from":"noreply@example.com","fromName":"Billing","helo":"mail.example.com","host":"smtp.example.com","password":"stored-password","port":587,"username":"u"}`},
		{name: "SMTP without a password of its own", provider: "smtp", stored: smtpStored, extra: `{"host":"relay.example.org","password":"","from":"me@example.org"}`,
			want: `{"from":"me@example.org","host":"relay.example.org","password":""}`},
		{name: "SES region refused", provider: "ses", stored: `{"accessKeyId":"AK","secretAccessKey":"s","region":"eu-west-1","from":"a@b.co"}`,
			extra: `{"region":"attacker.example#"}`, problems: []string{"override.ses._config.region: " + overlayAdvice}},
		{name: "a secret that is also the destination", provider: "slack", stored: `{"webhookUrl":"https://hooks.slack.com/services/T/B/stored"}`,
			extra: `{"webhookUrl":"https://mine.example/hook"}`, want: `{"webhookUrl":"https://mine.example/hook"}`},
		{name: "the bot token is not sent to another base URL", provider: "slack", stored: `{"botToken":"xoxb-stored"}`,
			extra: `{"baseUrl":"https://attacker.example/api"}`, problems: []string{"override.slack._config.baseUrl: " + overlayAdvice}},
		{name: "webhook headers are secret", provider: "webhook", stored: `{"url":"https://hooks.example.com","secret":"0123456789abcdef","headers":{"Authorization":"Bearer stored"}}`,
			extra: `{"url":"https://attacker.example"}`, problems: []string{"override.webhook._config.url: " + overlayAdvice}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, probs := overlayConfig(schemaOf(t, tc.provider), fields(t, tc.stored), fields(t, tc.extra), "override."+tc.provider+"._config")
			if !reflect.DeepEqual(probs, tc.problems) {
				t.Errorf("problems %q, want %q", probs, tc.problems)
			}
			if tc.want == "" {
				if got != nil {
					t.Errorf("refused overlay still gave a configuration: %s", mustJSON(got))
				}
				return
			}
			if g := mustJSON(got); g != tc.want {
				t.Errorf("config %s\nwant   %s", g, tc.want)
			}
			if strings.Contains(tc.extra, "apiKey") && strings.Contains(mustJSON(got), storedSecret) {
				t.Error("own credentials were merged with the stored secret")
			}
		})
	}
	if _, probs := overlayConfig(nil, nil, fields(t, `{"x":1}`), "override.x._config"); len(probs) != 1 {
		t.Errorf("no schema: %q", probs)
	}
}

// CheckOverride reports every refused overlay of a send at accept, naming the key, and
// leaves alone overrides of providers this build does not have.
func TestCheckOverrideAtAccept(t *testing.T) {
	s := &Service{catalogue: providers.NewCatalogue(append(all.Kinds(), smtp.Kind(), webhook.Kind())...)}
	for _, tc := range []struct {
		override string
		want     []string
	}{
		{`{"channels":["email"],"sendgrid":{"_config":{"fromName":"Billing"}},"unknown":{"_config":{"baseUrl":"x"}}}`, nil},
		{`{"sendgrid":{"_config":{"baseUrl":"https://attacker.example"}}}`, []string{"override.sendgrid._config.baseUrl: " + overlayAdvice}},
		{`{"smtp":{"_config":{"host":"attacker.example","port":25,"fromName":5}},"sendgrid":{"_config":[1]}}`, []string{
			"override.sendgrid._config must be an object",
			"override.smtp._config.host: " + overlayAdvice,
			"override.smtp._config.port: " + overlayAdvice,
			"override.smtp._config.fromName must be a string",
		}},
		{`{"sendgrid":{"_config":{"apiKey":"SG.mine","baseUrl":"https://mine.example"}}}`, []string{"override.sendgrid._config.from is required"}},
		{`{"sendgrid":{"_config":{"apiKey":"SG.mine","from":"me@example.org","baseUrl":"https://mine.example"}}}`, nil},
		{`{"sendgrid":{"_config":null,"sandbox":true}}`, nil},
	} {
		if got := s.CheckOverride(json.RawMessage(tc.override)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.override, got, tc.want)
		}
	}
}
