package delivery

import (
	"strings"

	"github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/providers"
)

// Profile keys that hold a user's addresses. Inline recipients of a send
// ({"identifier", "email", "phoneNumber"}) store them there.
const (
	ProfileEmail = "email"
	ProfilePhone = "phoneNumber"
)

// Reach says what a user can be reached by besides the profile: stored web push
// subscriptions and mobile push tokens.
type Reach struct {
	WebPush   bool
	PushToken bool
}

// MissingAddress returns why a user cannot be reached on a channel, or "".
func MissingAddress(channel string, profile map[string]any, reach Reach) string {
	switch channel {
	case herald.ChannelEmail:
		if str(profile, ProfileEmail) == "" {
			return ReasonNoEmail
		}
	case herald.ChannelSMS, herald.ChannelWhatsApp:
		if Phone(profile) == "" {
			return ReasonNoPhone
		}
	case herald.ChannelWebPush:
		if !reach.WebPush {
			return ReasonNoPushSub
		}
	case herald.ChannelMobilePush:
		if !reach.PushToken {
			return ReasonNoDeviceToken
		}
	}
	return ""
}

// Phone returns the user's phone number (phoneNumber, or phone).
func Phone(profile map[string]any) string {
	if p := str(profile, ProfilePhone); p != "" {
		return p
	}
	return str(profile, "phone")
}

// Address fills the profile-based address of a channel: email, phone number, and for chat
// channels the profile's own target (profile.<channel> as a webhook URL or a channel id,
// or an object {webhookUrl, channel}); push addresses come from stored subscriptions.
func Address(channel string, profile map[string]any) providers.Address {
	a := providers.Address{Email: str(profile, ProfileEmail), PhoneNumber: Phone(profile)}
	switch channel {
	case herald.ChannelSlack, herald.ChannelDiscord, herald.ChannelMSTeams:
		switch v := profile[channel].(type) {
		case string:
			if strings.HasPrefix(v, "https://") {
				a.WebhookURL = v
			} else {
				a.ChatChannel = v
			}
		case map[string]any:
			a.WebhookURL = str(v, "webhookUrl")
			a.ChatChannel = str(v, "channel")
		}
	}
	return a
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return strings.TrimSpace(s)
}
