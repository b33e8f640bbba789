package v3_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// authKind is the credentials a route takes.
type authKind int

const (
	kindApp       authKind = iota // API key + secret
	kindAppSecret                 // API key + secret in API-SECRET or SECRET-KEY
	kindUser                      // user credentials
	kindUserOrApp                 // user credentials, or app credentials naming the user
	kindDevice                    // user credentials + device id
)

// authRoutes lists every authenticated /v3 route (ids are placeholders: credentials are
// checked first).
var authRoutes = []struct {
	method, path string
	kind         authKind
}{
	{"POST", "/v3/notifications", kindApp},
	{"GET", "/v3/notifications", kindUserOrApp},
	{"POST", "/v3/notifications/markAllNotificationsAsSeen", kindUser},
	{"POST", "/v3/notifications/markAllNotificationsAsRead", kindUser},
	{"POST", "/v3/notifications/markAllNotificationsAsDeleted", kindUser},
	{"GET", "/v3/notifications/1", kindUser},
	{"DELETE", "/v3/notifications/1", kindUser},
	{"POST", "/v3/notifications/1/click", kindUser},
	{"POST", "/v3/notifications/1/views", kindUser},
	{"DELETE", "/v3/notifications/1/views", kindUser},
	{"POST", "/v3/notifications/1/reads", kindUser},
	{"DELETE", "/v3/notifications/1/reads", kindUser},
	{"PUT", "/v3/notifications/1/state", kindUser},
	{"PUT", "/v3/notifications/1/snooze", kindUser},
	{"DELETE", "/v3/notifications/1/snooze", kindUser},
	{"GET", "/v3/profile", kindUser},
	{"PUT", "/v3/profile", kindUser},
	{"PATCH", "/v3/profile", kindUser},
	{"GET", "/v3/preferences", kindUser},
	{"PATCH", "/v3/preferences", kindUser},
	{"GET", "/v3/preferences/channels", kindUser},
	{"PUT", "/v3/preferences/channels", kindUser},
	{"GET", "/v3/preferences/workflows", kindUser},
	{"PATCH", "/v3/preferences/workflows", kindUser},
	{"GET", "/v3/preferences/quiet-hours", kindUser},
	{"PUT", "/v3/preferences/quiet-hours", kindUser},
	{"GET", "/v3/categories", kindUser},
	{"POST", "/v3/categories", kindAppSecret},
	{"DELETE", "/v3/categories/1", kindAppSecret},
	{"POST", "/v3/users", kindApp},
	{"PUT", "/v3/users/alice", kindApp},
	{"DELETE", "/v3/users/alice", kindApp},
	{"POST", "/v3/sdk/connect", kindDevice},
	{"POST", "/v3/devices/d1/webPushSubscription", kindUser},
	{"POST", "/v3/topics", kindApp},
	{"GET", "/v3/topics", kindApp},
	{"PATCH", "/v3/topics/1", kindApp},
	{"DELETE", "/v3/topics/1", kindApp},
	{"POST", "/v3/topics/1/users", kindApp},
	{"POST", "/v3/topics/1/detachUsers", kindApp},
	{"PUT", "/v3/topics/1/users/alice", kindApp},
	{"GET", "/v3/topics/subscriptions/alice", kindApp},
}

func TestEveryRouteRefusesMissingAndWrongCredentials(t *testing.T) {
	f := newFixture(t)
	e, a := f.e, f.plain
	const (
		noParams    = "No authentication parameters found"
		combination = "No valid combination of authentication parameters found"
		badKey      = "Invalid API key"
		badSecret   = "Invalid API key or secret"
		badToken    = "Invalid bearer token"
	)
	type attempt struct {
		name    string
		headers stacktest.Headers
		want    string
	}
	for _, r := range authRoutes {
		attempts := []attempt{{"none", nil, noParams}}
		switch r.kind {
		case kindApp, kindAppSecret:
			attempts = append(attempts,
				attempt{"key only", stacktest.Headers{prefix + "API-KEY": a.APIKey}, combination},
				attempt{"user credentials", userH(a, "alice"), combination},
				attempt{"bearer token", bearerH(f.token(a, "alice")), combination},
				attempt{"wrong secret", with(appH(a), prefix+"API-SECRET", "hs_wrong"), badSecret},
				attempt{"another app's secret", with(appH(a), prefix+"API-SECRET", f.other.APISecret), badSecret},
				attempt{"unknown key", with(appH(a), prefix+"API-KEY", "nope"), badKey})
			if r.kind == kindAppSecret {
				attempts = append(attempts, attempt{"wrong secret key", stacktest.Headers{prefix + "API-KEY": a.APIKey, prefix + "SECRET-KEY": "hs_wrong"}, badSecret})
			} else {
				attempts = append(attempts, attempt{"secret in SECRET-KEY", stacktest.Headers{prefix + "API-KEY": a.APIKey, prefix + "SECRET-KEY": a.APISecret}, combination})
			}
		default:
			user := userH(a, "alice")
			if r.kind == kindDevice {
				user[prefix+"DEVICE-ID"] = "d1"
				attempts = append(attempts, attempt{"no device id", userH(a, "alice"), combination})
			}
			attempts = append(attempts,
				attempt{"key only", with(user, prefix+"USER-ID", ""), combination},
				attempt{"unknown key", with(user, prefix+"API-KEY", "nope"), badKey},
				attempt{"malformed token", with(user, "Authorization", "Bearer abc"), badToken},
				attempt{"another app's token", with(user, "Authorization", "Bearer "+f.token(f.other, "alice")), badToken},
				attempt{"no signature (hmac app)", userH(f.hmac, "alice"), "requires " + prefix + "USER-SIGNATURE"},
				attempt{"no token (secure app)", userH(f.secure, "alice"), "secure mode"})
			if r.kind != kindUserOrApp {
				attempts = append(attempts, attempt{"app credentials", appH(a), combination})
			}
		}
		for _, at := range attempts {
			if r.kind == kindDevice && at.headers != nil && at.name != "no device id" {
				at.headers[prefix+"DEVICE-ID"] = "d1"
			}
			res := e.Do(r.method, r.path, "{}", at.headers)
			wantError(t, res, 401, at.want, r.method+" "+r.path+" with "+at.name)
		}
	}
}

// tokenWith signs arbitrary claims with a method and key.
func tokenWith(t *testing.T, m jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestUserAuthModes(t *testing.T) {
	f := newFixture(t)
	e := f.e
	// Inbox sizes tell whose inbox a request reached.
	f.seed(f.plain, "alice", 1)
	f.seed(f.plain, "bob", 2)
	f.seed(f.hmac, "alice", 3)
	f.seed(f.secure, "alice", 4)
	noKeyApp := e.NewApp("no signing key")
	now := time.Now()
	plainKey := f.keys[f.plain.AppID]
	stranger, _ := rsa.GenerateKey(rand.Reader, 2048)
	pubDER, _ := x509.MarshalPKIXPublicKey(&plainKey.PublicKey)
	claims := func(extra jwt.MapClaims) jwt.MapClaims {
		c := jwt.MapClaims{"sub": "alice", "apiKey": f.plain.APIKey, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	expired, _ := userjwt.Mint(plainKey, f.plain.APIKey, "alice", time.Hour, now.Add(-2*time.Hour))
	// An app that allows long-lived tokens accepts one without exp; the others refuse it.
	longLived := e.NewApp("long-lived")
	f.seed(longLived, "alice", 5)
	if _, _, err := e.Stack.Apps.GenerateRSAKey(context.Background(), longLived.AppID); err != nil {
		t.Fatal(err)
	}
	longKey, err := e.Stack.Apps.RSAPrivateKey(context.Background(), longLived.AppID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), "UPDATE apps SET allow_long_lived_user_tokens = true WHERE id = $1", longLived.AppID); err != nil {
		t.Fatal(err)
	}
	forever := func(key *rsa.PrivateKey, app apps.Credentials) string {
		tok, err := userjwt.Mint(key, app.APIKey, "alice", 0, now)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	cases := []struct {
		name    string
		headers stacktest.Headers
		total   int    // inbox size reached, or
		err     string // the 401 message
	}{
		{"user mode", userH(f.plain, "alice"), 1, ""},
		{"lower-case header names", stacktest.Headers{"x-service-api-key": f.plain.APIKey, "x-service-user-id": "bob"}, 2, ""},
		{"bearer token alone", bearerH(f.token(f.plain, "alice")), 1, ""},
		{"bearer token with key", with(bearerH(f.token(f.plain, "alice")), prefix+"API-KEY", f.plain.APIKey), 1, ""},
		{"bearer token with the same user id", with(bearerH(f.token(f.plain, "alice")), prefix+"USER-ID", "alice"), 1, ""},
		{"subject user:<identifier>", bearerH(tokenWith(t, jwt.SigningMethodRS256, plainKey, claims(jwt.MapClaims{"sub": "user:bob"}))), 2, ""},
		{"token without apiKey claim, key header", with(bearerH(tokenWith(t, jwt.SigningMethodRS256, plainKey, jwt.MapClaims{"sub": "bob", "exp": now.Add(time.Hour).Unix()})), prefix+"API-KEY", f.plain.APIKey), 2, ""},
		{"token names another user than the header", with(bearerH(f.token(f.plain, "alice")), prefix+"USER-ID", "bob"), 0, "does not match " + prefix + "USER-ID"},
		{"token without apiKey claim or key header", bearerH(tokenWith(t, jwt.SigningMethodRS256, plainKey, jwt.MapClaims{"sub": "bob"})), 0, "No valid combination"},
		{"token for another app's key header", with(bearerH(f.token(f.other, "alice")), prefix+"API-KEY", f.plain.APIKey), 0, "issued for another app"},
		{"token signed by a stranger", bearerH(tokenWith(t, jwt.SigningMethodRS256, stranger, claims(nil))), 0, "not signed by this app"},
		{"expired token", bearerH(expired), 0, "expired"},
		{"token without exp", bearerH(forever(plainKey, f.plain)), 0, "it has no expiry (exp claim)"},
		{"secure app, token without exp", bearerH(forever(f.keys[f.secure.AppID], f.secure)), 0, "it has no expiry (exp claim)"},
		{"token without exp, app allows long-lived tokens", bearerH(forever(longKey, longLived)), 5, ""},
		{"token without exp signed by a stranger, app allows long-lived tokens", bearerH(forever(stranger, longLived)), 0, "not signed by this app"},
		{"token not valid yet", bearerH(tokenWith(t, jwt.SigningMethodRS256, plainKey, claims(jwt.MapClaims{"nbf": now.Add(time.Hour).Unix()}))), 0, "Invalid bearer token"},
		{"HS256 with the public key as secret", bearerH(tokenWith(t, jwt.SigningMethodHS256, pubDER, claims(nil))), 0, "Invalid bearer token"},
		{"alg none", bearerH(tokenWith(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(nil))), 0, "Invalid bearer token"},
		{"token without subject", bearerH(tokenWith(t, jwt.SigningMethodRS256, plainKey, jwt.MapClaims{"apiKey": f.plain.APIKey})), 0, "Invalid bearer token"},
		{"app without a signing key", bearerH(tokenWith(t, jwt.SigningMethodRS256, plainKey, jwt.MapClaims{"sub": "alice", "apiKey": noKeyApp.APIKey})), 0, "no signing key"},
		{"hmac app with signature", sigH(f.hmac, "alice"), 3, ""},
		{"hmac app without signature", userH(f.hmac, "alice"), 0, "requires " + prefix + "USER-SIGNATURE"},
		{"hmac app with another user's signature", with(userH(f.hmac, "alice"), prefix+"USER-SIGNATURE", signature(f.hmac.APISecret, "bob")), 0, "Invalid user signature"},
		{"hmac app with a signature that is not base64", with(userH(f.hmac, "alice"), prefix+"USER-SIGNATURE", "%%%"), 0, "Invalid user signature"},
		{"secure app with token", bearerH(f.token(f.secure, "alice")), 4, ""},
		{"secure app with token and key header", with(bearerH(f.token(f.secure, "alice")), prefix+"API-KEY", f.secure.APIKey), 4, ""},
		{"secure app without token", userH(f.secure, "alice"), 0, "secure mode"},
		{"secure app with signature only", sigH(f.secure, "alice"), 0, "secure mode"},
		{"app credentials naming the user", appH(f.plain), 2, ""},
	}
	for _, tc := range cases {
		path := "/v3/notifications"
		if tc.name == "app credentials naming the user" {
			path += "?userIdentifier=bob"
		}
		res := e.Do("GET", path, nil, tc.headers)
		if tc.err != "" {
			wantError(t, res, 401, tc.err, tc.name)
			continue
		}
		if !wantStatus(t, res, 200, tc.name) {
			continue
		}
		var page struct{ Pagination struct{ TotalCount int } }
		res.JSON(t, &page)
		if page.Pagination.TotalCount != tc.total {
			t.Errorf("%s: reached an inbox of %d, want %d", tc.name, page.Pagination.TotalCount, tc.total)
		}
	}
}

func TestDeviceModeAndSecretKeyHeader(t *testing.T) {
	f := newFixture(t)
	e := f.e
	body := `{"deviceType":"browser"}`
	for name, h := range map[string]stacktest.Headers{
		"user credentials":  with(userH(f.plain, "alice"), prefix+"DEVICE-ID", "d1"),
		"bearer token":      with(bearerH(f.token(f.plain, "alice")), prefix+"DEVICE-ID", "d2"),
		"secure app, token": with(bearerH(f.token(f.secure, "alice")), prefix+"DEVICE-ID", "d3"),
		"hmac app":          with(sigH(f.hmac, "alice"), prefix+"DEVICE-ID", "d4"),
	} {
		wantStatus(t, e.Do("POST", "/v3/sdk/connect", body, h), 200, "connect with "+name)
	}
	h := stacktest.Headers{prefix + "API-KEY": f.plain.APIKey, prefix + "SECRET-KEY": f.plain.APISecret}
	wantStatus(t, e.Do("POST", "/v3/categories", `{"identifier":"news","name":"News"}`, h), 200, "category create with SECRET-KEY")
	wantStatus(t, e.Do("POST", "/v3/categories", `{"identifier":"promo","name":"Promotions"}`, appH(f.plain)), 200, "category create with API-SECRET")
}

func TestHeaderPrefixIsConfigurable(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.HeaderPrefix = "X-ACME-" }})
	ok := stacktest.Headers{"X-ACME-API-KEY": e.App.APIKey, "X-ACME-USER-ID": "alice"}
	wantStatus(t, e.Do("GET", "/v3/notifications", nil, ok), 200, "custom prefix")
	res := e.Do("GET", "/v3/notifications", nil, stacktest.Headers{prefix + "API-KEY": e.App.APIKey, prefix + "USER-ID": "alice"})
	wantError(t, res, 401, "No authentication parameters found: send X-ACME-API-KEY", "default prefix on a custom-prefix server")
}
