package console

import (
	"net/url"
	"strings"

	herald "github.com/heraldhq/herald"
)

// CheckRedirect accepts a redirect target only when it is a path on the console or a URL
// on one of the allowed console origins, so a sign-in link can never send a user elsewhere.
// It returns the target unchanged for the caller to echo.
func (s *Service) CheckRedirect(raw string) (string, error) {
	bad := herald.Invalid("redirect must be a path such as /apps or a URL on an allowed console origin (HERALD_CONSOLE_ORIGINS)")
	if raw == "" {
		return "", herald.Invalid("redirect is required")
	}
	if len(raw) > 2048 || strings.ContainsAny(raw, "\\\r\n\t") {
		return "", bad
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.User != nil {
		return "", bad
	}
	if u.Scheme == "" && u.Host == "" {
		// A relative path: "/x" stays on the console; "//host" would be protocol-relative.
		if !strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "//") {
			return "", bad
		}
		return raw, nil
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", bad
	}
	origin := u.Scheme + "://" + strings.ToLower(u.Host)
	for _, o := range s.cfg.Origins {
		if strings.EqualFold(strings.TrimRight(o, "/"), origin) {
			return raw, nil
		}
	}
	return "", bad
}

// link builds the absolute console URL for an emailed code: the redirect (or path) with
// the code added as a query parameter, resolved against the console URL.
func (s *Service) link(target, param, code string) string {
	base, err := url.Parse(s.cfg.ConsoleURL)
	if err != nil || s.cfg.ConsoleURL == "" {
		base = &url.URL{}
	}
	ref, err := url.Parse(target)
	if err != nil {
		ref = &url.URL{}
	}
	u := base.ResolveReference(ref)
	q := u.Query()
	q.Set(param, code)
	u.RawQuery = q.Encode()
	return u.String()
}
