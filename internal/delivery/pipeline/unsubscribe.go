package pipeline

import (
	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/providers"
)

// unsubscribeLink is the one-click unsubscribe link of a recipient's email in a category:
// none for other channels, for a message without a category (tokens name a category), for
// a critical message (a critical category or workflow ignores opt-outs, so a link would
// promise what it cannot do), or when no Links are wired.
func (a *Service) unsubscribeLink(lg dbsqlc.MessageLog, categoryID *int64, critical bool) unsubscribe.Link {
	if lg.Channel != herald.ChannelEmail || categoryID == nil || critical {
		return unsubscribe.Link{}
	}
	return a.Unsubscribe.For(lg.AppID, lg.UserID, *categoryID)
}

// preferencesURL is the link to the recipient's hosted preference page, for every email
// whose user Herald knows, with or without a category, critical or not (the page changes
// preferences, it promises nothing about this message); none for other channels.
func (a *Service) preferencesURL(lg dbsqlc.MessageLog) string {
	if lg.Channel != herald.ChannelEmail {
		return ""
	}
	return a.Unsubscribe.PreferencesURL(lg.AppID, lg.UserID)
}

// withLink puts the links into a recipient's template data ({{unsubscribeUrl}},
// {{preferencesUrl}}) and returns the unsubscribe headers for the provider message.
func withLink(data map[string]any, link unsubscribe.Link, preferencesURL string) []providers.Header {
	templates.SetLinks(data, link.URL, preferencesURL)
	var out []providers.Header
	for _, h := range link.Headers {
		out = append(out, providers.Header{Name: h[0], Value: h[1]})
	}
	return out
}
