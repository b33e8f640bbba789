package unsubscribe

import (
	"strings"
	"time"
)

// Path is the route of one-click unsubscribe, at the root of the API listener (outside
// /v1 and /v3: the token is the only credential).
const Path = "/unsubscribe/"

// PreferencesPath is the route of the hosted preference page, beside Path.
const PreferencesPath = "/preferences/"

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
	// Preferences signs the preference page links (nil: emails carry none).
	Preferences *Signer
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

func (l *Links) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// PreferencesURL returns the link to user's hosted preference page in app, valid for
// TokenLifetime; "" when no preference Signer is wired.
func (l *Links) PreferencesURL(app, user int64) string {
	if l == nil || l.Preferences == nil || app <= 0 || user <= 0 {
		return ""
	}
	tok := l.Preferences.Sign(Claims{App: app, User: user, Kind: KindPreferences, Expires: l.now().Add(TokenLifetime)})
	return strings.TrimRight(l.BaseURL, "/") + PreferencesPath + tok
}

// For returns the link that turns email off for user of app in category. A nil Links
// (no secret key wired) gives none.
func (l *Links) For(app, user, category int64) Link {
	if l == nil || l.Signer == nil || category <= 0 {
		return Link{}
	}
	tok := l.Signer.Sign(Claims{App: app, User: user, Kind: KindCategory, Scope: category, Expires: l.now().Add(TokenLifetime)})
	u := strings.TrimRight(l.BaseURL, "/") + Path + tok
	list := "<" + u + ">"
	if l.Mailto != "" {
		list += ", <mailto:" + l.Mailto + "?subject=unsubscribe%20" + tok + ">"
	}
	return Link{URL: u, Headers: [][2]string{{HeaderListUnsubscribe, list}, {HeaderListUnsubscribePost, OneClick}}}
}
