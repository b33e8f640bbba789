// Package delivery holds the decisions of the delivery pipeline that need no I/O: which
// channels a send may use, which of them each recipient gets (topic channels,
// preferences, addresses), and the statuses and reasons the message log records.
package delivery

import (
	"slices"

	"github.com/heraldhq/herald"
)

// Message log statuses.
const (
	StatusQueued    = "queued"
	StatusSent      = "sent"
	StatusDelivered = "delivered"
	StatusFailed    = "failed"
	StatusSkipped   = "skipped"
	// StatusHeld is an external message waiting for the end of the recipient's quiet
	// hours; its run's timer releases it (queued again, then the usual outcome).
	StatusHeld = "held"
)

// Reasons for not delivering, recorded on skipped (or failed) message log rows. Opt-outs
// have their own wording, built by OptOut.
const (
	ReasonNotConfigured     = "channel not configured"
	ReasonNoTemplateContent = "template has no content for this channel"
	ReasonNoEmail           = "no email address"
	ReasonNoPhone           = "no phone number"
	ReasonNoPushSub         = "no push subscription"
	ReasonNoDeviceToken     = "no device token"
	ReasonTopicChannels     = "not among the topic subscription's channels"
)

// SendChannels is the outcome of channel selection for a whole send.
type SendChannels struct {
	// Candidates are the channels the send may deliver on, in herald.Channels order.
	Candidates []string
	// Unavailable are channels the send asked for by name (override.channels or the
	// template) that cannot deliver, with the reason each recipient's log records.
	Unavailable map[string]string
}

// ForSend selects a send's channels, in order: override.channels restricts (nil: no
// restriction); then a channel needs an enabled provider instance (in-app needs none);
// then, with a template (hasTemplate), the channels it has content for.
func ForSend(override []string, hasTemplate bool, templateChannels []string, configured map[string]bool) SendChannels {
	out := SendChannels{Unavailable: map[string]string{}}
	for _, ch := range herald.Channels {
		named := slices.Contains(override, ch)
		if len(override) > 0 && !named {
			continue
		}
		inTemplate := slices.Contains(templateChannels, ch)
		explicit := named || (hasTemplate && inTemplate)
		if ch != herald.ChannelInApp && !configured[ch] {
			if explicit {
				out.Unavailable[ch] = ReasonNotConfigured
			}
			continue
		}
		if hasTemplate && !inTemplate {
			if named {
				out.Unavailable[ch] = ReasonNoTemplateContent
			}
			continue
		}
		out.Candidates = append(out.Candidates, ch)
	}
	return out
}

// Skip is a channel a recipient does not get, and why.
type Skip struct {
	Channel string
	Reason  string
}

// Recipient is what the per-recipient decision needs about one user.
type Recipient struct {
	// TopicChannels restricts the channels for a topic subscriber; empty means all.
	TopicChannels []string
	// Preferences are the user's explicit choices for the send's category; an unset pair
	// follows Defaults.
	Preferences map[string]bool
	// Defaults are the app's defaults for the category's channels: false starts the
	// channel off until the user turns it on; unlisted channels start on.
	Defaults map[string]bool
	// Category is the send's category identifier ("" when it has none), for the reasons.
	Category string
	// ChannelsOff are the channels the user turned off for every notification.
	ChannelsOff map[string]bool
	// Flow is the workflow's identifier of a flow step ("" for a plain send), and
	// FlowPreferences the user's explicit switches for it by channel, "" standing for the
	// whole workflow.
	Flow            string
	FlowPreferences map[string]bool
	// Critical names what makes the send critical ("category billing", "workflow
	// otp"); "" when it is not. A critical send ignores every opt-out.
	Critical string
	// Missing returns why the user cannot be reached on a channel ("" when reachable).
	Missing func(channel string) string
}

// ForRecipient decides which of the send's channels a recipient gets; every channel it
// does not get (outside its topic channels excepted) is a Skip with its reason.
func ForRecipient(sc SendChannels, r Recipient) (deliver []string, skips []Skip) {
	for _, ch := range herald.Channels {
		reason, unavailable := sc.Unavailable[ch]
		candidate := slices.Contains(sc.Candidates, ch)
		if !unavailable && !candidate {
			continue
		}
		if len(r.TopicChannels) > 0 && !slices.Contains(r.TopicChannels, ch) {
			continue
		}
		switch {
		case unavailable:
			skips = append(skips, Skip{ch, reason})
		case r.Critical == "" && OptOut(r, ch) != "":
			skips = append(skips, Skip{ch, OptOut(r, ch)})
		case r.Missing != nil && r.Missing(ch) != "":
			skips = append(skips, Skip{ch, r.Missing(ch)})
		default:
			deliver = append(deliver, ch)
		}
	}
	return deliver, skips
}

// OptOut returns the opt-out that covers a channel for the recipient, worded for the
// message log ("" when none), whether or not the send is critical. A channel turned off for
// every notification always applies; below it the most specific switch the user set wins:
// flow × channel, then the whole flow, then category × channel; with none set, the app's
// default for the category × channel (unset: on).
func OptOut(r Recipient, ch string) string {
	if r.ChannelsOff[ch] {
		return "opted out: channel " + ch + " (all notifications)"
	}
	if on, set := r.FlowPreferences[ch]; set && r.Flow != "" {
		if on {
			return ""
		}
		return "opted out: flow " + r.Flow + ", channel " + ch
	}
	if on, set := r.FlowPreferences[""]; set && r.Flow != "" {
		if on {
			return ""
		}
		return "opted out: flow " + r.Flow
	}
	if on, set := r.Preferences[ch]; set {
		switch {
		case on:
			return ""
		case r.Category == "":
			return "opted out: channel " + ch + " (notifications without a category)"
		}
		return "opted out: category " + r.Category + ", channel " + ch
	}
	if on, set := r.Defaults[ch]; set && !on && r.Category != "" {
		return "off by default: category " + r.Category + ", channel " + ch + " (the user has not turned it on)"
	}
	return ""
}

// Bypass returns the note a delivered channel's log row carries when a critical send
// ignored an opt-out ("" when there was nothing to ignore).
func Bypass(r Recipient, ch string) string {
	if r.Critical == "" {
		return ""
	}
	if o := OptOut(r, ch); o != "" {
		return "critical (" + r.Critical + "): delivered despite " + o
	}
	return ""
}
