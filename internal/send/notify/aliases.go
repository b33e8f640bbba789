// Package notify accepts send requests: it parses and validates them into a
// herald.SendRequest and writes them to the outbox.
package notify

import herald "github.com/heraldhq/herald"

// Temporary aliases while callers move to the root vocabulary (issue 29 item 1); removed
// once no caller names them.
const (
	ChannelInApp            = herald.ChannelInApp
	ChannelEmail            = herald.ChannelEmail
	ChannelSMS              = herald.ChannelSMS
	ChannelWhatsApp         = herald.ChannelWhatsApp
	ChannelWebPush          = herald.ChannelWebPush
	ChannelMobilePush       = herald.ChannelMobilePush
	ChannelSlack            = herald.ChannelSlack
	ChannelDiscord          = herald.ChannelDiscord
	ChannelMSTeams          = herald.ChannelMSTeams
	ChannelWebhook          = herald.ChannelWebhook
	MaxInlineRecipients     = herald.MaxInlineRecipients
	MaxIdentifierLength     = herald.MaxIdentifierLength
	MaxTopics               = herald.MaxTopics
	MaxSchedule             = herald.MaxSchedule
	MaxIdempotencyKeyLength = herald.MaxIdempotencyKeyLength
)

// Aliases of the root vocabulary (see the constants).
type (
	SendRequest = herald.SendRequest
	Content     = herald.Content
	Recipient   = herald.Recipient
	Override    = herald.Override
	WorkflowRef = herald.FlowRef
)

// Channels and IsChannel alias the root's.
var (
	Channels  = herald.Channels
	IsChannel = herald.IsChannel
)
