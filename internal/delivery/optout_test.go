package delivery

import (
	"reflect"
	"testing"
)

// TestOptOutPrecedence is the table of the opt-out rule: a channel turned off for every
// notification skips it; below it the most specific switch set wins (flow × channel, flow,
// category × channel), then the app's default for the category × channel; a critical category or flow is delivered whatever they say, and its
// log row says which opt-out it ignored.
func TestOptOutPrecedence(t *testing.T) {
	sc := SendChannels{Candidates: []string{"inApp", "email", "sms"}, Unavailable: map[string]string{}}
	cases := []struct {
		name    string
		r       Recipient
		deliver []string
		skips   []Skip
		bypass  map[string]string
	}{
		{"nothing set: every channel", Recipient{Category: "billing"}, []string{"inApp", "email", "sms"}, nil, nil},
		{"global channel off", Recipient{Category: "billing", ChannelsOff: map[string]bool{"sms": true}},
			[]string{"inApp", "email"}, []Skip{{"sms", "opted out: channel sms (all notifications)"}}, nil},
		{"global off wins over a category switched on", Recipient{Category: "billing", ChannelsOff: map[string]bool{"sms": true}, Preferences: map[string]bool{"sms": true}},
			[]string{"inApp", "email"}, []Skip{{"sms", "opted out: channel sms (all notifications)"}}, nil},
		{"category × channel off", Recipient{Category: "billing", Preferences: map[string]bool{"email": false, "sms": true}},
			[]string{"inApp", "sms"}, []Skip{{"email", "opted out: category billing, channel email"}}, nil},
		{"no category: the default row's switch", Recipient{Preferences: map[string]bool{"inApp": false}},
			[]string{"email", "sms"}, []Skip{{"inApp", "opted out: channel inApp (notifications without a category)"}}, nil},
		{"critical category ignores both", Recipient{Category: "security", Critical: "category security", ChannelsOff: map[string]bool{"sms": true}, Preferences: map[string]bool{"email": false}},
			[]string{"inApp", "email", "sms"}, nil, map[string]string{
				"email": "critical (category security): delivered despite opted out: category security, channel email",
				"sms":   "critical (category security): delivered despite opted out: channel sms (all notifications)",
			}},
		{"critical flow ignores both", Recipient{Category: "billing", Critical: "workflow otp", ChannelsOff: map[string]bool{"email": true}, Preferences: map[string]bool{"sms": false}},
			[]string{"inApp", "email", "sms"}, nil, map[string]string{
				"email": "critical (workflow otp): delivered despite opted out: channel email (all notifications)",
				"sms":   "critical (workflow otp): delivered despite opted out: category billing, channel sms",
			}},
		{"flow × channel off", Recipient{Category: "billing", Flow: "reminder", FlowPreferences: map[string]bool{"sms": false}},
			[]string{"inApp", "email"}, []Skip{{"sms", "opted out: flow reminder, channel sms"}}, nil},
		{"whole flow off", Recipient{Category: "billing", Flow: "reminder", FlowPreferences: map[string]bool{"": false}},
			nil, []Skip{{"inApp", "opted out: flow reminder"}, {"email", "opted out: flow reminder"}, {"sms", "opted out: flow reminder"}}, nil},
		{"flow × channel on beats flow off", Recipient{Flow: "reminder", FlowPreferences: map[string]bool{"": false, "email": true}},
			[]string{"email"}, []Skip{{"inApp", "opted out: flow reminder"}, {"sms", "opted out: flow reminder"}}, nil},
		{"flow on beats category × channel off", Recipient{Category: "billing", Flow: "reminder", FlowPreferences: map[string]bool{"": true}, Preferences: map[string]bool{"email": false}},
			[]string{"inApp", "email", "sms"}, nil, nil},
		{"flow × channel on beats category × channel off", Recipient{Category: "billing", Flow: "reminder", FlowPreferences: map[string]bool{"email": true}, Preferences: map[string]bool{"email": false, "sms": false}},
			[]string{"inApp", "email"}, []Skip{{"sms", "opted out: category billing, channel sms"}}, nil},
		{"global off beats flow × channel on", Recipient{Flow: "reminder", ChannelsOff: map[string]bool{"sms": true}, FlowPreferences: map[string]bool{"sms": true}},
			[]string{"inApp", "email"}, []Skip{{"sms", "opted out: channel sms (all notifications)"}}, nil},
		{"critical flow ignores its own switches", Recipient{Flow: "otp", Critical: "workflow otp", FlowPreferences: map[string]bool{"": false}},
			[]string{"inApp", "email", "sms"}, nil, map[string]string{
				"inApp": "critical (workflow otp): delivered despite opted out: flow otp",
				"email": "critical (workflow otp): delivered despite opted out: flow otp",
				"sms":   "critical (workflow otp): delivered despite opted out: flow otp",
			}},
		{"app default off: skipped until the user turns it on", Recipient{Category: "digest", Defaults: map[string]bool{"email": false}},
			[]string{"inApp", "sms"}, []Skip{{"email", "off by default: category digest, channel email (the user has not turned it on)"}}, nil},
		{"the user's own choice beats the app default", Recipient{Category: "digest", Defaults: map[string]bool{"email": false, "sms": false}, Preferences: map[string]bool{"email": true}},
			[]string{"inApp", "email"}, []Skip{{"sms", "off by default: category digest, channel sms (the user has not turned it on)"}}, nil},
		{"flow on beats the app default", Recipient{Category: "digest", Flow: "weekly", FlowPreferences: map[string]bool{"": true}, Defaults: map[string]bool{"email": false}},
			[]string{"inApp", "email", "sms"}, nil, nil},
		{"global off beats an app default on", Recipient{Category: "digest", ChannelsOff: map[string]bool{"email": true}, Defaults: map[string]bool{"email": true}},
			[]string{"inApp", "sms"}, []Skip{{"email", "opted out: channel email (all notifications)"}}, nil},
		{"critical ignores the app default", Recipient{Category: "security", Critical: "category security", Defaults: map[string]bool{"sms": false}},
			[]string{"inApp", "email", "sms"}, nil, map[string]string{
				"sms": "critical (category security): delivered despite off by default: category security, channel sms (the user has not turned it on)",
			}},
		{"critical without opt-outs: no note", Recipient{Critical: "category security"}, []string{"inApp", "email", "sms"}, nil, nil},
		{"critical still needs an address", Recipient{Critical: "category security", ChannelsOff: map[string]bool{"sms": true}, Missing: func(ch string) string {
			if ch == "sms" {
				return ReasonNoPhone
			}
			return ""
		}}, []string{"inApp", "email"}, []Skip{{"sms", ReasonNoPhone}}, nil},
	}
	for _, tc := range cases {
		deliver, skips := ForRecipient(sc, tc.r)
		if !reflect.DeepEqual(deliver, tc.deliver) || !reflect.DeepEqual(skips, tc.skips) {
			t.Errorf("%s: deliver %v skips %v", tc.name, deliver, skips)
		}
		for _, ch := range deliver {
			if got := Bypass(tc.r, ch); got != tc.bypass[ch] {
				t.Errorf("%s: bypass %s = %q, want %q", tc.name, ch, got, tc.bypass[ch])
			}
		}
	}
}
