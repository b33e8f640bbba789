package herald

import "slices"

// Channel identifiers (docs/decisions.md#channels): the words the API, the preferences,
// the providers and the message log share.
const (
	ChannelInApp      = "inApp"
	ChannelEmail      = "email"
	ChannelSMS        = "sms"
	ChannelWhatsApp   = "whatsapp"
	ChannelWebPush    = "webPush"
	ChannelMobilePush = "mobilePush"
	ChannelSlack      = "slack"
	ChannelDiscord    = "discord"
	ChannelMSTeams    = "msTeams"
	ChannelWebhook    = "webhook"
)

// Channels lists every channel identifier in a stable order.
var Channels = []string{
	ChannelInApp, ChannelEmail, ChannelSMS, ChannelWhatsApp, ChannelWebPush,
	ChannelMobilePush, ChannelSlack, ChannelDiscord, ChannelMSTeams, ChannelWebhook,
}

// IsChannel reports whether name is a known channel identifier.
func IsChannel(name string) bool { return slices.Contains(Channels, name) }
