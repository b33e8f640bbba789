package apps

import (
	"context"
	"net/url"
	"slices"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// MaxAllowedOrigins bounds an app's CORS origin list.
const MaxAllowedOrigins = 50

// AnyOrigin in an app's allowed origins lets every web page call its user routes.
const AnyOrigin = "*"

// CheckOrigins validates an allowedOrigins setting and returns it normalised the way
// browsers send the Origin header (lower case, no default port, no trailing slash), without
// duplicates. Every problem is recorded in p.
func CheckOrigins(in []string, p *herald.Problems) []string {
	if len(in) > MaxAllowedOrigins {
		p.Addf("allowedOrigins must contain at most %d origins", MaxAllowedOrigins)
		return nil
	}
	out := make([]string, 0, len(in))
	for i, o := range in {
		n, ok := normaliseOrigin(o)
		if !ok {
			p.Addf("allowedOrigins[%d] must be an origin such as https://app.example.com (scheme, host and optional port) or *", i)
			continue
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func normaliseOrigin(o string) (string, bool) {
	o = strings.TrimSpace(o)
	if o == AnyOrigin {
		return o, true
	}
	if len(o) > 255 {
		return "", false
	}
	u, err := url.Parse(strings.TrimSuffix(o, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" ||
		u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(o, "?") || strings.Contains(u.Hostname(), "*") {
		return "", false
	}
	host := strings.ToLower(u.Host)
	if (u.Scheme == "https" && strings.HasSuffix(host, ":443")) || (u.Scheme == "http" && strings.HasSuffix(host, ":80")) {
		host = host[:strings.LastIndexByte(host, ':')]
	}
	return u.Scheme + "://" + host, true
}

// AllowsOrigin reports whether a page on origin (the request's Origin header) may call the
// app's user routes: the origin is listed, or the app lists "*".
func (a App) AllowsOrigin(origin string) bool {
	if origin == "" || origin == "null" {
		return slices.Contains(a.AllowedOrigins, AnyOrigin)
	}
	n, ok := normaliseOrigin(origin)
	if !ok {
		return false
	}
	for _, o := range a.AllowedOrigins {
		if o == AnyOrigin || o == n {
			return true
		}
	}
	return false
}

// SetAllowedOrigins replaces an app's CORS origins (after CheckOrigins); used by `herald
// dev` for its demo app and by tests. The console changes them with PUT /v1/apps/{appId}.
func (s *Service) SetAllowedOrigins(ctx context.Context, appID int64, origins []string) error {
	var p herald.Problems
	origins = CheckOrigins(origins, &p)
	if err := p.Err(); err != nil {
		return err
	}
	if err := s.db.SetAppAllowedOrigins(ctx, dbsqlc.SetAppAllowedOriginsParams{ID: appID, AllowedOrigins: origins}); err != nil {
		return db.MapError(err)
	}
	s.forget(appID)
	return nil
}
