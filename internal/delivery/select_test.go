package delivery

import (
	"reflect"
	"testing"
)

func TestForSend(t *testing.T) {
	configured := map[string]bool{"email": true, "sms": true}
	cases := []struct {
		name        string
		override    []string
		hasTemplate bool
		template    []string
		candidates  []string
		unavailable map[string]string
	}{
		{"defaults: in-app and configured channels", nil, false, nil, []string{"inApp", "email", "sms"}, map[string]string{}},
		{"override restricts and names an unconfigured channel", []string{"email", "webPush"}, false, nil,
			[]string{"email"}, map[string]string{"webPush": ReasonNotConfigured}},
		{"template channels", nil, true, []string{"inApp", "email", "slack"},
			[]string{"inApp", "email"}, map[string]string{"slack": ReasonNotConfigured}},
		{"override outside the template", []string{"sms", "email"}, true, []string{"email"},
			[]string{"email"}, map[string]string{"sms": ReasonNoTemplateContent}},
	}
	for _, tc := range cases {
		got := ForSend(tc.override, tc.hasTemplate, tc.template, configured)
		if !reflect.DeepEqual(got.Candidates, tc.candidates) || !reflect.DeepEqual(got.Unavailable, tc.unavailable) {
			t.Errorf("%s: got %+v", tc.name, got)
		}
	}
}

func TestForRecipient(t *testing.T) {
	sc := SendChannels{Candidates: []string{"inApp", "email", "sms", "webPush"}, Unavailable: map[string]string{"slack": ReasonNotConfigured}}
	profile := map[string]any{"email": "a@example.com"}
	r := Recipient{
		Preferences: map[string]bool{"inApp": false, "email": true},
		Missing:     func(ch string) string { return MissingAddress(ch, profile, Reach{}) },
	}
	deliver, skips := ForRecipient(sc, r)
	if !reflect.DeepEqual(deliver, []string{"email"}) {
		t.Errorf("deliver %v", deliver)
	}
	want := []Skip{{"inApp", "opted out: channel inApp (notifications without a category)"}, {"sms", ReasonNoPhone}, {"webPush", ReasonNoPushSub}, {"slack", ReasonNotConfigured}}
	if !reflect.DeepEqual(skips, want) {
		t.Errorf("skips %v", skips)
	}
	// A topic subscriber gets only its topic's channels, without skips for the others.
	r.TopicChannels = []string{"email", "sms"}
	deliver, skips = ForRecipient(sc, r)
	if !reflect.DeepEqual(deliver, []string{"email"}) || !reflect.DeepEqual(skips, []Skip{{"sms", ReasonNoPhone}}) {
		t.Errorf("topic: %v %v", deliver, skips)
	}
}

func TestAddress(t *testing.T) {
	p := map[string]any{"email": " a@example.com ", "phone": "+15550100", "slack": map[string]any{"webhookUrl": "https://hooks.slack.test/x"}, "discord": "https://discord.test/w"}
	if a := Address("slack", p); a.Email != "a@example.com" || a.PhoneNumber != "+15550100" || a.WebhookURL != "https://hooks.slack.test/x" {
		t.Errorf("slack %+v", a)
	}
	if a := Address("discord", p); a.WebhookURL != "https://discord.test/w" {
		t.Errorf("discord %+v", a)
	}
	if r := MissingAddress("mobilePush", p, Reach{WebPush: true}); r != ReasonNoDeviceToken {
		t.Errorf("mobile push: %q", r)
	}
}
