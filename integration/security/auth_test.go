package security

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pquerna/otp/totp"

	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// attack is one forged or stale credential and what it must get.
type attack struct {
	name    string
	method  string
	path    string
	headers stacktest.Headers
	body    any
	// want is the status (401 unless set).
	want int
}

// TestAuthAttacks tries every credential attack of issue 11 against the real API: forged
// and stale user tokens (alg none, HS256 keyed with the public key, expired, not yet
// valid, another app's, tampered claims, another subject), bad HMAC signatures, wrong API
// secrets, a console session after sign-out, a revoked CLI token and a replayed TOTP
// code. Each must be refused with 401 (or 403) and write nothing. api/v3/auth_test.go,
// api/v1/auth_test.go, api/v1/twofactor_test.go and userjwt test the same mechanisms in
// more detail; this suite keeps the whole list in one place.
func TestAuthAttacks(t *testing.T) {
	w := newWorld(t)
	e, a, b := w.e, w.a, w.b
	ctx := context.Background()
	p := e.Cfg.HeaderPrefix
	key, err := e.Stack.Apps.RSAPrivateKey(ctx, a.app)
	if err != nil {
		t.Fatal(err)
	}
	bKey, err := e.Stack.Apps.RSAPrivateKey(ctx, b.app)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	sign := func(m jwt.SigningMethod, k any, claims jwt.MapClaims) string {
		s, err := jwt.NewWithClaims(m, claims).SignedString(k)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	claims := func(extra jwt.MapClaims) jwt.MapClaims {
		c := jwt.MapClaims{"sub": a.user, "apiKey": a.creds.APIKey, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	good, err := userjwt.Mint(key, a.creds.APIKey, a.user, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	pubDER, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})
	stranger, _ := rsa.GenerateKey(rand.Reader, 2048)
	// Tampered: the payload now names tenant B's user; the signature is the original's.
	parts := strings.Split(good, ".")
	var payload map[string]any
	raw, _ := base64.RawURLEncoding.DecodeString(parts[1])
	_ = json.Unmarshal(raw, &payload)
	payload["sub"] = b.user
	forged, _ := json.Marshal(payload)
	tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString(forged) + "." + parts[2]
	bearer := func(tok string) stacktest.Headers { return stacktest.Headers{"Authorization": "Bearer " + tok} }
	inbox := "/v3/notifications"
	attacks := []attack{
		{name: "JWT alg none", headers: bearer(sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims(nil)))},
		{name: "JWT HS256 keyed with the app's public key (PEM)", headers: bearer(sign(jwt.SigningMethodHS256, pubPEM, claims(nil)))},
		{name: "JWT HS256 keyed with the app's public key (DER)", headers: bearer(sign(jwt.SigningMethodHS256, pubDER, claims(nil)))},
		{name: "JWT expired", headers: bearer(sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"exp": now.Add(-time.Minute).Unix()})))},
		{name: "JWT not yet valid", headers: bearer(sign(jwt.SigningMethodRS256, key, claims(jwt.MapClaims{"nbf": now.Add(time.Hour).Unix()})))},
		{name: "JWT signed by another app's key", headers: bearer(sign(jwt.SigningMethodRS256, bKey, claims(nil)))},
		{name: "JWT of another app sent with this app's key", headers: withH(bearer(sign(jwt.SigningMethodRS256, bKey, claims(jwt.MapClaims{"apiKey": b.creds.APIKey}))), p+"API-KEY", a.creds.APIKey)},
		{name: "JWT signed by a stranger", headers: bearer(sign(jwt.SigningMethodRS256, stranger, claims(nil)))},
		{name: "JWT with tampered claims", headers: bearer(tampered)},
		{name: "JWT with a signature cut off", headers: bearer(parts[0] + "." + parts[1] + ".")},
		{name: "JWT for another subject than the user id header", headers: withH(bearer(good), p+"USER-ID", b.user)},
		{name: "JWT without exp (a leaked one would work forever)", headers: bearer(sign(jwt.SigningMethodRS256, key, jwt.MapClaims{"sub": a.user, "apiKey": a.creds.APIKey, "iat": now.Unix()}))},
		{name: "JWT without a subject", headers: bearer(sign(jwt.SigningMethodRS256, key, jwt.MapClaims{"apiKey": a.creds.APIKey, "exp": now.Add(time.Hour).Unix()}))},
		{name: "wrong API secret", headers: stacktest.Headers{p + "API-KEY": a.creds.APIKey, p + "API-SECRET": "hs_wrong"}, method: "POST", path: "/v3/notifications", body: `{"notification":{"title":"x"},"sendTo":{"recipients":["x"]}}`},
		{name: "another app's API secret", headers: stacktest.Headers{p + "API-KEY": a.creds.APIKey, p + "API-SECRET": b.creds.APISecret}, method: "POST", path: "/v3/notifications", body: `{"notification":{"title":"x"},"sendTo":{"recipients":["x"]}}`},
		{name: "API secret with one character changed", headers: stacktest.Headers{p + "API-KEY": a.creds.APIKey, p + "API-SECRET": flipOne(a.creds.APISecret)}, method: "POST", path: "/v3/users", body: `{"identifier":"intruder"}`},
		{name: "API secret prefix only", headers: stacktest.Headers{p + "API-KEY": a.creds.APIKey, p + "API-SECRET": a.creds.APISecret[:8]}, method: "POST", path: "/v3/users", body: `{"identifier":"intruder"}`},
		{name: "empty API secret", headers: stacktest.Headers{p + "API-KEY": a.creds.APIKey, p + "API-SECRET": ""}, method: "POST", path: "/v3/users", body: `{"identifier":"intruder"}`},
	}

	// HMAC mode on tenant B's app: user calls need base64(HMAC-SHA256(secret, user)).
	if err := e.Stack.Apps.SetHMACAuth(ctx, b.app, true); err != nil {
		t.Fatal(err)
	}
	user := stacktest.Headers{p + "API-KEY": b.creds.APIKey, p + "USER-ID": b.user}
	for name, sig := range map[string]string{
		"HMAC signature missing":                   "",
		"HMAC signature empty base64":              "=",
		"HMAC signature of another user":           hmacOf(b.creds.APISecret, a.user),
		"HMAC signature with another app's secret": hmacOf(a.creds.APISecret, b.user),
		"HMAC signature not base64":                "%%%not-base64",
		"HMAC signature truncated":                 hmacOf(b.creds.APISecret, b.user)[:20],
		"HMAC signature hex instead of base64":     fmt.Sprintf("%x", hmacRaw(b.creds.APISecret, b.user)),
	} {
		h := withH(user, p+"USER-SIGNATURE", sig)
		if sig == "" {
			h = user
		}
		attacks = append(attacks, attack{name: name, headers: h}, attack{name: name + " (PATCH /v3/profile)", headers: h, method: "PATCH", path: "/v3/profile", body: `[{"op":"add","path":"/owned","value":true}]`})
	}
	for name, q := range map[string]string{
		"realtime stream with a bad HMAC signature": "apiKey=" + b.creds.APIKey + "&userId=" + b.user + "&userSignature=" + url.QueryEscape(hmacOf(a.creds.APISecret, b.user)),
		"realtime stream with a forged token":       "token=" + url.QueryEscape(tampered),
	} {
		attacks = append(attacks, attack{name: name, path: "/v3/realtime?" + q})
	}
	// The right signature works, so the refusals above are about the signature.
	e.Must(e.Do("GET", inbox, nil, withH(user, p+"USER-SIGNATURE", hmacOf(b.creds.APISecret, b.user))), 200, "HMAC user with the right signature")
	e.Must(e.Do("GET", inbox, nil, bearer(good)), 200, "the untampered token")

	attacks = append(attacks, consoleAttacks(t, w)...)
	snap := newSnapshotter(t, e, w.stripe.rows)
	before := snap.take(t)
	for _, at := range attacks {
		method, path := at.method, at.path
		if method == "" {
			method = "GET"
		}
		if path == "" {
			path = inbox
		}
		res := e.Do(method, path, at.body, at.headers)
		want := at.want
		if want == 0 {
			want = 401
		}
		if res.Status != want {
			t.Errorf("%s: %s %s answered %d, want %d: %s", at.name, method, path, res.Status, want, res.Body)
		}
	}
	trail := 0
	for _, c := range before.diff(snap.take(t)) {
		if c.table == "auth_throttle" {
			continue // failed sign-in attempts are counted by design
		}
		if c.table == "audit_events" && c.before == "" && strings.Contains(c.after, `"action": "auth.signin_failed"`) {
			trail++ // and leave a trail in the audit log, by design
			continue
		}
		t.Errorf("an attack wrote: %s", c)
	}
	if trail == 0 {
		t.Error("the refused second factors left no trail in the audit log")
	}
	t.Logf("%d credential attacks, all refused with 401/403 and nothing written but throttle counters and %d audit events of failed sign-ins", len(attacks), trail)
}

// consoleAttacks prepares the management API attacks: a session after sign-out, a
// revoked CLI token, a replayed TOTP code, a challenge token used as a session.
func consoleAttacks(t *testing.T, w *world) []attack {
	t.Helper()
	e := w.e
	var out []attack
	// A session signed out.
	gone := w.console.User("leaver@example.com", password)
	e.Must(e.Do("POST", "/v1/auth/signout", nil, stacktest.Bearer(gone.AccessToken)), 200, "sign out")
	out = append(out,
		attack{name: "console access token after sign-out", path: "/v1/auth/me", headers: stacktest.Bearer(gone.AccessToken)},
		attack{name: "console refresh token after sign-out", method: "POST", path: "/v1/auth/refresh", body: map[string]string{"refreshToken": gone.RefreshToken}},
		attack{name: "console access token tampered", path: "/v1/auth/me", headers: stacktest.Bearer(flipOne(w.a.login.AccessToken))},
	)
	// A CLI token revoked.
	base := fmt.Sprintf("/v1/clients/%d/cli-token", w.b.client)
	e.Must(e.Do("DELETE", fmt.Sprintf("%s/%d", base, w.b.cliTokenID), nil, stacktest.Bearer(w.b.login.AccessToken)), 200, "revoke the CLI token")
	out = append(out,
		attack{name: "CLI token after revocation", path: fmt.Sprintf("/v1/apps/%d/secret", w.b.app), headers: stacktest.Bearer(w.b.cliToken)},
		attack{name: "CLI token guessed", path: "/v1/auth/validate", headers: stacktest.Bearer("hcli_" + strings.Repeat("A", 43))},
	)
	// TOTP: a code accepted once is never accepted again.
	kim := w.console.User("kim@example.com", password)
	secret := e.Must(e.Do("GET", "/v1/ee/auth/2fa", nil, stacktest.Bearer(kim.AccessToken)), 200, "2fa setup").Map(t)["secret"].(string)
	first, _ := totp.GenerateCode(secret, time.Now())
	e.Must(e.Do("PATCH", "/v1/ee/auth/2fa/enable", map[string]string{"code": first}, stacktest.Bearer(kim.AccessToken)), 200, "enable 2fa")
	signIn := func() string {
		return e.Must(e.Do("POST", "/v1/auth?redirect=/apps", map[string]string{"email": "kim@example.com", "password": password}, nil), 200, "sign in").Map(t)["challengeToken"].(string)
	}
	next, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	e.Must(e.Do("POST", "/v1/ee/auth/2fa/validate", map[string]string{"code": next}, stacktest.Bearer(signIn())), 200, "second factor")
	challenge := signIn()
	out = append(out,
		attack{name: "TOTP code replayed", method: "POST", path: "/v1/ee/auth/2fa/validate", body: map[string]string{"code": next}, headers: stacktest.Bearer(challenge)},
		attack{name: "TOTP code older than the last one accepted", method: "POST", path: "/v1/ee/auth/2fa/validate", body: map[string]string{"code": first}, headers: stacktest.Bearer(challenge)},
		attack{name: "2FA challenge token used as a session", path: "/v1/auth/me", headers: stacktest.Bearer(challenge)},
		attack{name: "2FA validation without the challenge", method: "POST", path: "/v1/ee/auth/2fa/validate", body: map[string]string{"code": next}},
		attack{name: "tenant A's session on tenant B's app secret", path: fmt.Sprintf("/v1/apps/%d/secret", w.b.app), headers: stacktest.Bearer(w.a.login.AccessToken), want: 404},
	)
	return out
}

func withH(h stacktest.Headers, k, v string) stacktest.Headers {
	out := stacktest.Headers{k: v}
	for hk, hv := range h {
		if hk != k {
			out[hk] = hv
		}
	}
	return out
}

func hmacRaw(secret, user string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(user))
	return m.Sum(nil)
}

func hmacOf(secret, user string) string {
	return base64.StdEncoding.EncodeToString(hmacRaw(secret, user))
}

// flipOne changes one character of a credential. It changes one in the middle, not the last:
// in base64 the last characters may carry only padding bits that decoders ignore ('A' and 'B'
// can decode to the same bytes), so changing them does not always tamper.
func flipOne(s string) string {
	i := len(s) / 2
	for i < len(s)-1 && (s[i] == '.' || s[i] == '=' || s[i] == '-') {
		i++
	}
	c := byte('A')
	if s[i] == 'A' {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}
