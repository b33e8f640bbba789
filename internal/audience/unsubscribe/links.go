package unsubscribe

import (
	"strings"
	"time"
)

// Path is the route of one-click unsubscribe, at the root of the API listener (outside
// /v1 and /v3: the token is the only credential).
const Path = "/unsubscribe/"

// Headers of RFC 2369 and RFC 8058.
const (
	HeaderListUnsubscribe     = "List-Unsubscribe"
	HeaderListUnsubscribePost = "List-Unsubscribe-Post"
	// OneClick is the only value RFC 8058 allows for List-Unsubscribe-Post.
	OneClick = "List-Unsubscribe=One-Click"
)

// Links builds the unsubscribe links of emails.
type Links struct {
	Signer *Signer
	// BaseURL is the public URL of the API (HERALD_PUBLIC_URL, else the listen address).
	BaseURL string
	// Mailto, when set, is added to List-Unsubscribe as a second, mail-based way out
	// (HERALD_UNSUBSCRIBE_MAILTO); the operator handles what arrives there.
	Mailto string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Link is the unsubscribe link of one email, or the zero Link when it has none.
type Link struct {
	URL     string
	Headers [][2]string
}

// For returns the link that turns email off for user of app in category. A nil Links
// (no secret key wired) gives none.
func (l *Links) For(app, user, category int64) Link {
	if l == nil || l.Signer == nil || category <= 0 {
		return Link{}
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	tok := l.Signer.Sign(Claims{App: app, User: user, Kind: KindCategory, Scope: category, Expires: now().Add(TokenLifetime)})
	u := strings.TrimRight(l.BaseURL, "/") + Path + tok
	list := "<" + u + ">"
	if l.Mailto != "" {
		list += ", <mailto:" + l.Mailto + "?subject=unsubscribe%20" + tok + ">"
	}
	return Link{URL: u, Headers: [][2]string{{HeaderListUnsubscribe, list}, {HeaderListUnsubscribePost, OneClick}}}
}
