package v1_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/heraldhq/herald/internal/ops/license"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// signLicense makes a license token as the licensing server would.
func signLicense(t *testing.T, key ed25519.PrivateKey, clientID int64, plan string, quota int64, issued, expires time.Time) string {
	t.Helper()
	tok, err := license.Sign(key, license.License{ID: fmt.Sprintf("lic_%d_%d", clientID, issued.UnixNano()), ClientID: clientID, Plan: plan,
		Limits: license.Limits{MonthlyNotifications: &quota}, IssuedAt: issued, ExpiresAt: expires})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestIssueLicense(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	e := newEnv(t, withPlans(500), func(c *config.Config) { c.Ops.LicenseSigningKey = b64(priv.Seed()); c.Ops.LicenseTTL = 48 * time.Hour })
	a := e.tenant(t, "lic@example.com")
	b := e.tenant(t, "other-lic@example.com")
	dev := e.member(t, a.tok, a.client, "dev-lic@example.com", "developer")

	res := must(t, e.Do("POST", "/v1/auth/issue-license", nil, bearer(a.tok)), 201, "issue")
	var l license.License
	res.JSON(t, &l)
	got, err := license.Verify(pub, l.Token)
	if err != nil || got.ClientID != a.client || got.Plan != "free" || *got.Limits.MonthlyNotifications != 500 {
		t.Fatalf("issued license %+v (%v)", got, err)
	}
	if d := time.Until(got.ExpiresAt); d < 47*time.Hour || d > 49*time.Hour {
		t.Errorf("expires in %s, want the configured 48h", d)
	}
	view := must(t, e.Do("GET", a.clientPath("/license"), nil, bearer(a.tok)), 200, "license").Map(t)
	if view["status"] != "valid" || view["license"].(map[string]any)["token"] != l.Token || view["entitlement"].(map[string]any)["source"] != "license" {
		t.Errorf("license view %v", view)
	}
	viewer := e.member(t, a.tok, a.client, "viewer-lic@example.com", "viewer")
	if v := must(t, e.Do("GET", a.clientPath("/license"), nil, bearer(viewer)), 200, "viewer").Map(t); v["license"].(map[string]any)["token"] != nil {
		t.Errorf("a viewer sees the token: %v", v)
	}
	if v := must(t, e.Do("GET", b.clientPath("/license"), nil, bearer(b.tok)), 200, "none").Map(t); v["status"] != "none" || v["license"] != nil {
		t.Errorf("no license: %v", v)
	}

	// The caller's client, named when it has several; only admins issue.
	wantError(t, e.Do("POST", "/v1/auth/issue-license", nil, bearer(dev)), 403, "this needs the admin role (or higher) on the client; yours is developer")
	wantError(t, e.Do("POST", "/v1/auth/issue-license", nil, nil), 401, "sign in first: send the access token as Authorization: Bearer <token>")
	wantError(t, e.Do("POST", fmt.Sprintf("/v1/auth/issue-license?clientId=%d", b.client), nil, bearer(a.tok)), 404, "client not found")
	wantMessages(t, e.Do("POST", "/v1/auth/issue-license?clientId=abc", nil, bearer(a.tok)), "clientId must be an integer number")
	e.client(t, a.tok, "Second client")
	wantMessages(t, e.Do("POST", "/v1/auth/issue-license", nil, bearer(a.tok)), "clientId is required (you belong to several clients, or to none)")
	must(t, e.Do("POST", fmt.Sprintf("/v1/auth/issue-license?clientId=%d", a.client), nil, bearer(a.tok)), 201, "named client")
}

func TestIssueLicenseNeedsTheSigningKey(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "nokey@example.com")
	wantError(t, e.Do("POST", "/v1/auth/issue-license", nil, bearer(a.tok)), 503, "issuing licenses is not configured on this installation: set HERALD_LICENSE_SIGNING_KEY")
	wantError(t, e.Do("POST", "/v1/webhook/licensing-server", `{"license":"x"}`, nil), 503,
		"license verification is not configured on this installation: set HERALD_LICENSE_PUBLIC_KEY to the licensing server's public key")
}

func TestLicensingWebhookAppliesSignedLicenses(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	_, otherKey, _ := ed25519.GenerateKey(nil)
	e := newEnv(t, withPlans(1), func(c *config.Config) {
		c.Ops.LicensePublicKey = b64(pub)
		c.Ops.QuotaMode = "enforce"
	})
	a := e.tenant(t, "selfhosted@example.com")
	h := e.appHeaders(a.app)
	must(t, e.Do("POST", "/v3/notifications", sendBody, h), 202, "the free plan's one send")
	wantError(t, e.Do("POST", "/v3/notifications", sendBody, h), 429, fmt.Sprintf(
		"monthly quota reached: the Free plan allows 1 notifications a month and 1 were sent in %s; upgrade the plan or wait until %s",
		time.Now().UTC().Format("2006-01"), time.Date(time.Now().UTC().Year(), time.Now().UTC().Month()+1, 1, 0, 0, 0, 0, time.UTC).Format("2006-01-02")))

	now := time.Now()
	tok := signLicense(t, priv, a.client, "pro", 3, now.Add(-time.Minute), now.Add(30*24*time.Hour))
	if res := e.Do("POST", "/v1/webhook/licensing-server", map[string]string{"license": tok}, nil); res.Status != 201 || string(res.Body) != `"accepted"` {
		t.Fatalf("license: %d %s", res.Status, res.Body)
	}
	// The license's limits apply at once: 3 a month.
	must(t, e.Do("POST", "/v3/notifications", sendBody, h), 202, "send 2 under the license")
	must(t, e.Do("POST", "/v3/notifications", sendBody, h), 202, "send 3 under the license")
	if res := e.Do("POST", "/v3/notifications", sendBody, h); res.Status != 429 {
		t.Errorf("send 4 over the license's 3: %d", res.Status)
	}

	// A replay, or an older license, changes nothing; a bare token body works too.
	if res := e.Do("POST", "/v1/webhook/licensing-server", tok, stacktest.Headers{"Content-Type": "text/plain"}); res.Status != 200 || string(res.Body) != `"unchanged"` {
		t.Errorf("replay: %d %s", res.Status, res.Body)
	}
	older := signLicense(t, priv, a.client, "free", 1, now.Add(-time.Hour), now.Add(time.Hour))
	if res := e.Do("POST", "/v1/webhook/licensing-server", map[string]string{"license": older}, nil); res.Status != 200 {
		t.Errorf("older license: %d %s", res.Status, res.Body)
	}
	if v := must(t, e.Do("GET", a.clientPath("/license"), nil, bearer(a.tok)), 200, "license").Map(t); v["license"].(map[string]any)["plan"] != "pro" {
		t.Errorf("license after replays %v", v)
	}

	forged := signLicense(t, otherKey, a.client, "business", 1_000_000, now, now.Add(time.Hour))
	wantError(t, e.Do("POST", "/v1/webhook/licensing-server", map[string]string{"license": forged}, nil), 401,
		"the license is not signed by the licensing server's key (HERALD_LICENSE_PUBLIC_KEY)")
	expired := signLicense(t, priv, a.client, "pro", 3, now.Add(-2*time.Hour), now.Add(-time.Hour))
	wantMessages(t, e.Do("POST", "/v1/webhook/licensing-server", map[string]string{"license": expired}, nil),
		"license expired at "+now.Add(-time.Hour).UTC().Truncate(time.Second).Format(time.RFC3339))
	unknown := signLicense(t, priv, 99999, "pro", 3, now, now.Add(time.Hour))
	wantError(t, e.Do("POST", "/v1/webhook/licensing-server", map[string]string{"license": unknown}, nil), 404, "client not found")
	wantMessages(t, e.Do("POST", "/v1/webhook/licensing-server", `{"license":5}`, nil), "license must be a string")
	wantMessages(t, e.Do("POST", "/v1/webhook/licensing-server", ``, nil), "license should not be empty")
	// A token without the license's claims is refused even when signed.
	bare, _ := jwt.NewWithClaims(jwt.SigningMethodEdDSA, jwt.MapClaims{"iss": license.Issuer, "sub": strconv.FormatInt(a.client, 10)}).SignedString(priv)
	wantMessages(t, e.Do("POST", "/v1/webhook/licensing-server", bare, nil),
		"license must name its client in clientId and sub", "license must name a plan", "license must have an id (jti)", "license must have iat and exp")
}
