package console

import (
	"net/url"
	"strings"

	herald "github.com/heraldhq/herald"
)

// CheckRedirect accepts a redirect target only when it is a path on the console or a URL
// on one of the allowed console origins, so a sign-in link can never send a user
// elsewhere. It records a problem otherwise and returns the accepted target (unchanged, for
// the caller to echo) or "".
func (s *Service) CheckRedirect(raw string, p *herald.Problems) string {
	if raw == "" {
		p.Addf("redirect is required")
		return ""
	}
	if s.redirectOK(raw) {
		return raw
	}
	p.Addf("redirect must be a path such as /apps or a URL on an allowed console origin (HERALD_CONSOLE_ORIGINS)")
	return ""
}

func (s *Service) redirectOK(raw string) bool {
	if len(raw) > 2048 || strings.ContainsAny(raw, "\\\r\n\t") {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" || u.User != nil {
		return false
	}
	if u.Scheme == "" && u.Host == "" {
		// A relative path: "/x" stays on the console; "//host" would be protocol-relative.
		return strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "//")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	origin := u.Scheme + "://" + strings.ToLower(u.Host)
	for _, o := range s.cfg.Origins {
		if strings.EqualFold(strings.TrimRight(o, "/"), origin) {
			return true
		}
	}
	return false
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

// SecureCookies reports whether the API is public over https (HERALD_PUBLIC_URL), so its
// cookies must be Secure even on a request that reached it as http (a proxy not trusted to
// say so).
func (s *Service) SecureCookies() bool { return s.cfg.SecureCookies }
