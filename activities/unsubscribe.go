package activities

import (
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/send/notify"
)

// critical reports whether a message must reach its recipient whatever their opt-outs
// (security alerts, receipts, one-time codes): such an email carries no unsubscribe link.
// This is the one place the check goes; no category or flow can be marked critical yet
// (issue 31, item 4), so every email is non-critical.
func critical(_ dbsqlc.MessageLog, _ *int64) bool {
	return false
}

// unsubscribeLink is the one-click unsubscribe link of a recipient's email in a category:
// none for other channels, for a message without a category (the preference store has
// no per-flow switch to turn off yet), for critical messages, or when no Links are wired.
func (a *Delivery) unsubscribeLink(lg dbsqlc.MessageLog, categoryID *int64) unsubscribe.Link {
	if lg.Channel != notify.ChannelEmail || categoryID == nil || critical(lg, categoryID) {
		return unsubscribe.Link{}
	}
	return a.Unsubscribe.For(lg.AppID, lg.UserID, *categoryID)
}

// withLink puts the link into a recipient's template data ({{unsubscribeUrl}},
// {{preferencesUrl}}) and returns its headers for the provider message.
func withLink(data map[string]any, link unsubscribe.Link) []providers.Header {
	templates.SetLinks(data, link.URL, link.URL)
	var out []providers.Header
	for _, h := range link.Headers {
		out = append(out, providers.Header{Name: h[0], Value: h[1]})
	}
	return out
}
