package delivery

import (
	"reflect"
	"testing"
)

// TestOptOutPrecedence is the table of the opt-out rule: a channel turned off for every
// notification skips it, then a category × channel switch; a critical category or flow is
// delivered whatever they say, and its log row says which opt-out it ignored.
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
