package all

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/configschema"
)

// channels are the channel identifiers of docs/decisions.md#channels.
func channels() []string {
	return []string{"inApp", "email", "sms", "whatsapp", "webPush", "mobilePush", "slack", "discord", "msTeams", "webhook"}
}

type schema struct {
	Type       string `json:"type"`
	Properties map[string]struct {
		Type        string `json:"type"`
		Description string `json:"description"`
		Secret      bool   `json:"x-secret"`
	} `json:"properties"`
	Required []string `json:"required"`
}

func TestCatalogueIsComplete(t *testing.T) {
	kinds := Kinds()
	cat := providers.NewCatalogue(kinds...)
	if got := len(cat.List("")); got != len(kinds) {
		t.Fatalf("%d kinds in the catalogue, %d listed: duplicate identifiers", got, len(kinds))
	}
	for _, k := range kinds {
		if k.Identifier == "" || k.Name == "" || k.New == nil || !slices.Contains(channels(), k.Channel) {
			t.Errorf("%+v", k)
		}
	}
	if len(cat.List("email")) != 4 || len(cat.List("mobilePush")) != 2 {
		t.Errorf("email %d, mobilePush %d", len(cat.List("email")), len(cat.List("mobilePush")))
	}
}

// Every schema documents every key, marks credentials secret, and its required keys are
// exactly what New complains about when given nothing.
func TestSchemasMatchWhatNewRequires(t *testing.T) {
	for _, k := range Kinds() {
		var s schema
		if err := json.Unmarshal(k.ConfigSchema, &s); err != nil || s.Type != "object" || len(s.Properties) == 0 {
			t.Errorf("%s: schema %s (%v)", k.Identifier, k.ConfigSchema, err)
			continue
		}
		secrets, names := 0, map[string]bool{}
		for name := range s.Properties {
			names[name] = true
		}
		for name, p := range s.Properties {
			if p.Type == "" || p.Description == "" {
				t.Errorf("%s.%s undocumented", k.Identifier, name)
			}
			if looksSecret(name, names) && !p.Secret {
				t.Errorf("%s.%s looks like a credential but is not x-secret", k.Identifier, name)
			}
			if p.Secret {
				secrets++
			}
		}
		if secrets == 0 && k.Identifier != "webpush" {
			t.Errorf("%s has no secret key", k.Identifier)
		}
		_, err := k.New(json.RawMessage(`{}`), providers.Deps{})
		for _, name := range s.Required {
			if _, ok := s.Properties[name]; !ok {
				t.Errorf("%s requires undocumented %s", k.Identifier, name)
			}
			if err == nil || !strings.Contains(err.Error(), name+" is required") {
				t.Errorf("%s: New({}) = %v, want %q", k.Identifier, err, name+" is required")
			}
		}
		if err != nil && len(s.Required) > 0 {
			var joined interface{ Unwrap() []error }
			if !errors.As(err, &joined) || len(joined.Unwrap()) != len(s.Required) {
				t.Errorf("%s: want one error per missing key, got %v", k.Identifier, err)
			}
		}
	}
}

func TestWrongTypesAreReported(t *testing.T) {
	sendgrid, _ := providers.NewCatalogue(Kinds()...).Lookup("sendgrid")
	_, err := sendgrid.New(json.RawMessage(`{"apiKey":5,"from":true}`), providers.Deps{})
	if err == nil || !strings.Contains(err.Error(), "apiKey must be a string") || !strings.Contains(err.Error(), "from must be a string") {
		t.Errorf("got %v", err)
	}
	if _, err := sendgrid.New(json.RawMessage(`[1]`), providers.Deps{}); err == nil || err.Error() != "configuration must be a JSON object" {
		t.Errorf("got %v", err)
	}
}

// looksSecret flags key names that hold credentials. Names that only identify a key
// (keyId, accessKeyId) and the token endpoint are public; an apiKey is a credential unless
// an apiSecret goes with it (Vonage).
func looksSecret(name string, props map[string]bool) bool {
	lower := strings.ToLower(name)
	switch lower {
	case "keyid", "accesskeyid", "tokenurl":
		return false
	case "apikey":
		return !props["apiSecret"]
	case "webhookurl", "serviceaccount":
		return true
	}
	return strings.Contains(lower, "token") || strings.Contains(lower, "secret") || strings.Contains(lower, "key")
}

// Every URL a provider connects to is marked "x-destination", so the management API
// checks it against the outbound guard at save; the only URLs left unmarked are ones
// Herald hands to the provider's service and never dials itself.
func TestDialledURLsAreDestinations(t *testing.T) {
	notDialled := map[string]bool{"discord.avatarUrl": true, "vonage-sms.statusReportCallback": true,
		"twilio-sms.statusCallback": true, "twilio-whatsapp.statusCallback": true}
	marked := 0
	for _, k := range Kinds() {
		s, err := configschema.Parse(k.ConfigSchema)
		if err != nil {
			t.Fatal(err)
		}
		dest := s.Destinations()
		for name, p := range s.Properties {
			key := k.Identifier + "." + name
			switch {
			case p.Format == "uri" && dest[name] == "" && !notDialled[key]:
				t.Errorf("%s is a URL without x-destination", key)
			case dest[name] != "" && (notDialled[key] || (p.Format == "uri") != (dest[name] == "url")):
				t.Errorf("%s is marked %q", key, dest[name])
			case dest[name] == "url":
				marked++
			}
		}
	}
	if marked != 15 {
		t.Errorf("%d URL destinations marked", marked)
	}
}
