package all

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/providers/configschema"
	"github.com/heraldhq/herald/internal/providers/smtp"
	"github.com/heraldhq/herald/internal/providers/webhook"
)

// Every configuration key of every provider is classified: secret ("x-secret"), destination
// ("x-destination": it decides where the instance's bytes go, or how securely) or ordinary.
// A send's override may change ordinary keys of a stored instance only, and an instance
// changing a destination must have its secrets re-entered, so a key added to a provider
// fails this test until it is placed here on purpose.
func TestEveryConfigKeyIsClassified(t *testing.T) {
	want := map[string]struct{ secret, destination, ordinary string }{
		"smtp":            {"password", "host port security", "connectTimeoutSeconds from fromName helo maxConnections replyTo timeoutSeconds username writeTimeoutSeconds"},
		"webhook":         {"headers secret", "url", "connectTimeoutSeconds responseTimeoutSeconds timeoutSeconds"},
		"sendgrid":        {"apiKey", "baseUrl", "connectTimeoutSeconds from fromName replyTo responseTimeoutSeconds timeoutSeconds"},
		"mailgun":         {"apiKey", "baseUrl region", "connectTimeoutSeconds domain from fromName replyTo responseTimeoutSeconds timeoutSeconds"},
		"postmark":        {"serverToken", "baseUrl", "connectTimeoutSeconds from fromName messageStream replyTo responseTimeoutSeconds timeoutSeconds"},
		"ses":             {"secretAccessKey sessionToken", "baseUrl region", "accessKeyId configurationSetName connectTimeoutSeconds from fromName replyTo responseTimeoutSeconds timeoutSeconds"},
		"twilio-sms":      {"authToken", "baseUrl", "accountSid connectTimeoutSeconds from messagingServiceSid responseTimeoutSeconds statusCallback timeoutSeconds"},
		"twilio-whatsapp": {"authToken", "baseUrl", "accountSid connectTimeoutSeconds from messagingServiceSid responseTimeoutSeconds statusCallback timeoutSeconds"},
		"vonage-sms":      {"apiSecret", "baseUrl", "apiKey connectTimeoutSeconds from responseTimeoutSeconds statusReportCallback timeoutSeconds"},
		"meta-whatsapp":   {"accessToken", "baseUrl", "apiVersion connectTimeoutSeconds phoneNumberId responseTimeoutSeconds timeoutSeconds"},
		"webpush":         {"", "", "connectTimeoutSeconds responseTimeoutSeconds subject timeoutSeconds ttl urgency"},
		"fcm":             {"serviceAccount", "baseUrl tokenUrl", "connectTimeoutSeconds projectId responseTimeoutSeconds timeoutSeconds"},
		"apns":            {"privateKey", "baseUrl environment", "bundleId connectTimeoutSeconds keyId pushType responseTimeoutSeconds teamId timeoutSeconds"},
		"slack":           {"botToken webhookUrl", "baseUrl webhookUrl", "channel connectTimeoutSeconds responseTimeoutSeconds timeoutSeconds"},
		"discord":         {"webhookUrl", "webhookUrl", "avatarUrl connectTimeoutSeconds responseTimeoutSeconds timeoutSeconds username"},
		"msteams":         {"webhookUrl", "webhookUrl", "connectTimeoutSeconds format responseTimeoutSeconds timeoutSeconds"},
	}
	kinds := append(Kinds(), smtp.Kind(), webhook.Kind())
	if len(kinds) != len(want) {
		t.Errorf("%d kinds, %d classified", len(kinds), len(want))
	}
	for _, k := range kinds {
		w, ok := want[k.Identifier]
		if !ok {
			t.Errorf("%s: its configuration keys are not classified here", k.Identifier)
			continue
		}
		s, err := configschema.Parse(k.ConfigSchema)
		if err != nil {
			t.Fatal(err)
		}
		var secret, dest, ordinary []string
		for name, p := range s.Properties {
			if p.Secret {
				secret = append(secret, name)
			}
			if p.Destination != "" {
				dest = append(dest, name)
			}
			if !p.Secret && p.Destination == "" {
				ordinary = append(ordinary, name)
			}
		}
		for _, c := range []struct {
			what string
			got  []string
			want string
		}{{"secret", secret, w.secret}, {"destination", dest, w.destination}, {"ordinary", ordinary, w.ordinary}} {
			sort.Strings(c.got)
			if want := strings.Fields(c.want); !slices.Equal(c.got, want) {
				t.Errorf("%s: %s keys %q, want %q", k.Identifier, c.what, c.got, want)
			}
		}
		if !slices.Equal(s.SecretFields(), secret) || !slices.Equal(s.DestinationFields(), dest) {
			t.Errorf("%s: SecretFields %q, DestinationFields %q", k.Identifier, s.SecretFields(), s.DestinationFields())
		}
	}
}
