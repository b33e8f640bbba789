package apps

import (
	"context"
	"slices"

	"github.com/heraldhq/herald/db"
)

// Warning is a setting of an app that weakens its users' authentication, shown by the
// console on the app list and page and listed in the app's answers (AppEntity.warnings).
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// The warning codes.
const (
	// WarnInsecureUserMode: neither secure mode nor HMAC signatures, so the public API key
	// plus any user id acts as that user (docs/security.md).
	WarnInsecureUserMode = "insecure_user_mode"
	// WarnLongLivedUserTokens: secure mode accepts user JWTs without exp.
	WarnLongLivedUserTokens = "long_lived_user_tokens"
)

// Warn lists the warnings of an app with these settings; never nil.
func Warn(secureAuth, hmacAuth, longLived bool) []Warning {
	out := []Warning{}
	if !secureAuth && !hmacAuth {
		out = append(out, Warning{Code: WarnInsecureUserMode, Message: "Not secure: anyone with the app's public API key can act as any user " +
			"(read their inbox, change their delivery addresses and preferences) by naming their user id. " +
			"Turn on secure mode: generate the signing key pair, sign user JWTs on your backend, and pass them to the inbox widget."})
	}
	if secureAuth && longLived {
		out = append(out, Warning{Code: WarnLongLivedUserTokens, Message: "User JWTs without an expiry (exp) are accepted: a leaked token works until the signing key is replaced."})
	}
	return out
}

// Flagged is an app with a warning of code Code, as herald doctor lists it.
type Flagged struct {
	ID       int64  `json:"id"`
	ClientID int64  `json:"clientId,omitempty"`
	Name     string `json:"name"`
}

// UserMode lists up to max apps (oldest first) carrying the warning WarnInsecureUserMode,
// across every client, and how many carry it in all.
func (s *Service) UserMode(ctx context.Context, max int) ([]Flagged, int, error) {
	rows, err := s.db.ListUserModeApps(ctx, int32(max))
	if err != nil {
		return nil, 0, db.MapError(err)
	}
	out := []Flagged{}
	total := 0
	for _, r := range rows {
		total = int(r.Total)
		if !slices.ContainsFunc(Warn(r.SecureAuth, r.HmacAuth, r.AllowLongLivedUserTokens), func(w Warning) bool { return w.Code == WarnInsecureUserMode }) {
			continue
		}
		f := Flagged{ID: r.ID, Name: r.Name}
		if r.ClientID != nil {
			f.ClientID = *r.ClientID
		}
		out = append(out, f)
	}
	return out, total, nil
}
