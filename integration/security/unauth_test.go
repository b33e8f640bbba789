package security

import (
	"sort"
	"strings"
	"testing"
)

// unauthenticated are the routes that answer without credentials by design, with the
// reason. Every other route of the route table must answer 401 to a call without any.
var unauthenticated = map[string]string{
	"POST /v1/auth":                              "sign-in",
	"POST /v1/ee/auth":                           "sign-in",
	"POST /v1/auth/signup":                       "sign-up",
	"POST /v1/auth/resendVerificationEmail":      "asks for an e-mail; answers the same for any address",
	"POST /v1/auth/passwordResetRequests":        "asks for an e-mail; answers the same for any address",
	"POST /v1/auth/resetPassword":                "the e-mailed reset code is the credential",
	"POST /v1/auth/refresh":                      "the refresh token in the body is the credential",
	"POST /v1/auth/console/refresh":              "the refresh cookie is the credential (204 without one; 403 without X-Herald-Console)",
	"GET /v1/ee/auth/codehost":                   "starts the code host sign-in",
	"GET /v1/ee/auth/codehost/options":           "tells the sign-in page which code hosts it offers (names only)",
	"POST /v1/ee/auth/codehost":                  "completes the code host sign-in (signed state)",
	"GET /v1/health":                             "health checks of load balancers",
	"GET /livez":                                 "liveness probe of orchestrators: a constant answer, no dependency asked, no data",
	"GET /readyz":                                "readiness probe of orchestrators: ready or not, naming the unreachable dependency only (no error text, no tenant data)",
	"GET /v1/openapi.json":                       "the API description",
	"GET /v3/openapi.json":                       "the API description",
	"GET /socket.io":                             "realtime: credentials come in the Socket.IO connect packet",
	"POST /socket.io":                            "realtime long-polling: a session's packets, the CONNECT packet carries the credentials (an unknown session is a 400)",
	"OPTIONS /socket.io":                         "CORS preflight of realtime long-polling; answers headers only",
	"GET /widget/:file":                          "the inbox widget's script files, the same for everyone (embedded in the binary); no tenant data",
	"POST /v1/auth/verify/:verificationCode":     "the e-mailed verification code is the credential",
	"GET /v1/invitations/:code":                  "the e-mailed invitation code is the credential",
	"GET /v1/files/uploads/:filename":            "public assets under unguessable names",
	"/v1/providerInstances/:instanceId/callback": "providers call it; the provider kind verifies its signature",
	"GET /v1/plans":                              "the plans on offer, the same for everyone (pricing before sign-up); no tenant data",
	"POST /v1/webhook/payments":                  "the payment provider calls it; the Stripe-Signature HMAC of the body (at most 5 minutes old) is the credential",
	"POST /v1/webhook/licensing-server":          "the licensing server calls it; the license's Ed25519 signature is the credential",
	"OPTIONS /codec/decode":                      "CORS preflight of the codec server: browsers send it without credentials; it answers only CORS headers (403 to origins not in HERALD_CODEC_SERVER_ORIGINS); POST needs the operator's bearer token (temporalcodec.TestCodecServer)",
	"OPTIONS /codec/encode":                      "CORS preflight of the codec server, as OPTIONS /codec/decode",
	"GET /unsubscribe/:token":                    "the link of an email's List-Unsubscribe header: the signed token (HMAC, one purpose, 60 days) is the credential; a page with one button, changes nothing; rate-limited per client address (TestOneClickUnsubscribeRoundTrip)",
	"GET /preferences/:token":                    "the hosted preference page ({{preferencesUrl}} of emails): the signed preference token (HMAC under its own key, one purpose, 60 days; unsubscribe tokens refused) is the credential; shows the token's user's switches only; rate-limited per client address (TestPreferencePageLinks)",
	"POST /preferences/:token":                   "saves the hosted preference page's form: the preference token plus the CSRF pair (SameSite=Strict cookie nonce, HMAC field bound to the token) are the credential; rate-limited per client address (TestPreferencePageLinks)",
	"POST /unsubscribe/:token":                   "RFC 8058 one-click unsubscribe: mailbox providers post it without cookie or login; the signed token (HMAC, one purpose, 60 days) is the credential and can only turn email off for its user and category; rate-limited per client address (TestUnsubscribeLinkAttacks)",
}

// preflightReason is why the CORS preflights of the browser routes answer without
// credentials.
const preflightReason = "CORS preflight: browsers send it without credentials; it answers only CORS headers (from the app named by ?apiKey) and reads no tenant data (api/v3/cors_test.go)"

// isPreflight reports whether a route is the OPTIONS preflight of a /v3 browser route.
func isPreflight(r route) bool {
	return r.method == "OPTIONS" && strings.HasPrefix(r.path, "/v3/")
}

// TestEveryRouteNeedsCredentials calls every route of the route table without credentials:
// each must answer 401, unless it is listed in unauthenticated with the reason it is
// public. A route registered without its auth middleware fails here. (The isolation matrix
// checks the public routes with path parameters against guessed values.)
func TestEveryRouteNeedsCredentials(t *testing.T) {
	w := newWorld(t)
	e := w.e
	var public []string
	for _, r := range registeredRoutes(t, e) {
		if _, ok := publicReason(r); ok {
			public = append(public, r.String())
			continue
		}
		vals := map[string]string{}
		for _, p := range r.params {
			vals[p] = "1"
			if f, ok := fixtureFor(r, p); ok {
				vals[p] = f.value(w.a)
			}
		}
		res := e.Do(r.method, r.fill(vals), bodyFor(r), nil)
		if res.Status != 401 {
			t.Errorf("%s without credentials: %d %.200s — want 401, or list the route in unauthenticated (unauth_test.go) with the reason it is public", r, res.Status, res.Body)
		}
	}
	sort.Strings(public)
	t.Logf("every route but %d public ones answers 401 without credentials; public: %s", len(public), strings.Join(public, ", "))
}
