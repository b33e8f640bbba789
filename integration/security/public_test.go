package security

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/ops/license"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestPublicRoutesHoldTheirReasons checks the reasons given in unauthenticated that are
// claims about behaviour, for the routes public since the billing, licensing and
// telemetry work: the two webhooks take nothing that is not signed with the right key and
// write nothing when they refuse (a correctly signed call goes through, so the refusals
// are about the signature); the plans are the same with and without credentials and hold
// no tenant data. /metrics, no longer public, is checked here too: on the API only with
// HERALD_METRICS_TOKEN, refused without it or with a wrong one, and without tenant data.
func TestPublicRoutesHoldTheirReasons(t *testing.T) {
	w := newWorld(t)
	e, a, b := w.e, w.a, w.b
	ctx := context.Background()
	snap := newSnapshotter(t, e, w.stripe.rows)
	refused := 0
	refuse := func(what, path string, body []byte, h stacktest.Headers, status int, message string) {
		t.Helper()
		before := snap.take(t)
		res := e.Do("POST", path, body, h)
		refused++
		if res.Status != status || !strings.Contains(string(res.Body), message) {
			t.Errorf("%s: %d %s, want %d with %q", what, res.Status, res.Body, status, message)
		}
		for _, c := range before.diff(snap.take(t)) {
			t.Errorf("%s was refused but wrote: %s", what, c)
		}
	}

	// Payments: a paid invoice of tenant B's customer.
	var customer string
	if err := e.Stack.DB.Pool.QueryRow(ctx, "SELECT customer_id FROM billing_customers WHERE client_id = $1", b.client).Scan(&customer); err != nil {
		t.Fatal(err)
	}
	event, _ := json.Marshal(map[string]any{"id": "evt_forged", "object": "event", "type": "invoice.paid", "created": time.Now().Unix(),
		"data": map[string]any{"object": map[string]any{"id": "in_1", "object": "invoice", "customer": customer, "number": "TenantB-1",
			"status": "paid", "currency": "usd", "amount_due": 100, "amount_paid": 100, "created": time.Now().Unix()}}})
	hook := "/v1/webhook/payments"
	sig := billing.SignatureHeader
	refuse("payment webhook without a signature", hook, event, nil, 400, sig+" header is missing")
	refuse("payment webhook signed with another secret", hook, event, stacktest.Headers{sig: billing.Sign(event, "whsec_guess", time.Now())}, 400, "does not match")
	refuse("payment webhook signed 10 minutes ago (a replay)", hook, event, stacktest.Headers{sig: billing.Sign(event, stripeWebhookSecret, time.Now().Add(-10*time.Minute))}, 400, "more than 5 minutes old")
	refuse("payment webhook whose body changed after signing", hook, []byte(strings.Replace(string(event), `"amount_paid":100`, `"amount_paid":1`, 1)),
		stacktest.Headers{sig: billing.Sign(event, stripeWebhookSecret, time.Now())}, 400, "does not match")
	refuse("payment webhook with a header that is not a signature", hook, event, stacktest.Headers{sig: "v1=" + strings.Repeat("0", 64)}, 400, "must look like")
	e.Must(e.Do("POST", hook, event, stacktest.Headers{sig: billing.Sign(event, stripeWebhookSecret, time.Now())}), 201, "the signed event")
	if inv := e.Must(e.Do("GET", fmt.Sprintf("/v1/clients/%d/invoices", b.client), nil, stacktest.Bearer(b.login.AccessToken)), 200, "B's invoices"); !strings.Contains(string(inv.Body), "TenantB-1") {
		t.Errorf("the signed event was not applied: %s", inv.Body)
	}

	// Licensing: a license for tenant B's client.
	lic := license.License{ID: "lic_forged", ClientID: b.client, Plan: "enterprise", IssuedAt: time.Now().Truncate(time.Second),
		ExpiresAt: time.Now().Add(365 * 24 * time.Hour).Truncate(time.Second)}
	_, stranger, _ := ed25519.GenerateKey(nil)
	foreign, err := license.Sign(stranger, lic)
	if err != nil {
		t.Fatal(err)
	}
	claims := jwt.MapClaims{"iss": license.Issuer, "sub": fmt.Sprint(b.client), "clientId": b.client, "plan": "enterprise", "jti": "lic_none",
		"iat": lic.IssuedAt.Unix(), "exp": lic.ExpiresAt.Unix()}
	unsigned, _ := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	hmacked, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(w.licenseKey.Public().(ed25519.PublicKey)))
	good, err := license.Sign(w.licenseKey, lic)
	if err != nil {
		t.Fatal(err)
	}
	lhook := "/v1/webhook/licensing-server"
	notSigned := "not signed by the licensing server's key"
	body := func(tok string) []byte { b, _ := json.Marshal(map[string]string{"license": tok}); return b }
	refuse("license signed by another key", lhook, body(foreign), nil, 401, notSigned)
	refuse("license with alg none", lhook, body(unsigned), nil, 401, notSigned)
	refuse("license signed with HS256 keyed with the public key", lhook, body(hmacked), nil, 401, notSigned)
	refuse("license with its signature cut off", lhook, body(good[:strings.LastIndex(good, ".")+1]), nil, 401, notSigned)
	refuse("license as a bare token signed by another key", lhook, []byte(foreign), nil, 401, notSigned)
	if res := e.Must(e.Do("POST", lhook, body(good), nil), 201, "the signed license"); string(res.Body) != `"accepted"` {
		t.Errorf("signed license: %s", res.Body)
	}

	// Plans: the same answer for a stranger and for each tenant, with nothing of theirs.
	plans := e.Must(e.Do("GET", "/v1/plans", nil, nil), 200, "plans without credentials").Body
	for _, tn := range []*tenant{a, b} {
		res := e.Must(e.Do("GET", "/v1/plans", nil, tn.headers(e, "/v1/")), 200, "plans as "+tn.marker)
		if string(res.Body) != string(plans) {
			t.Errorf("plans differ for %s: %s, without credentials %s", tn.marker, res.Body, plans)
		}
	}
	if strings.Contains(string(plans), a.marker) || strings.Contains(string(plans), b.marker) {
		t.Errorf("plans show tenant data: %s", plans)
	}

	// Metrics: on the API only to the bearer of HERALD_METRICS_TOKEN; counters labelled by
	// route pattern, never by a tenant's ids or names.
	tok := e.Cfg.Ops.MetricsToken
	for name, h := range map[string]stacktest.Headers{
		"no credentials": nil, "an app's API secret": a.headers(e, "/v3/"), "a console session": a.headers(e, "/v1/"),
		"another token": {"Authorization": "Bearer " + tok[:len(tok)-1] + "x"}, "the token cut short": {"Authorization": "Bearer " + tok[:len(tok)-1]},
		"the token as Basic": {"Authorization": "Basic " + tok}, "the token without Bearer": {"Authorization": tok},
	} {
		if res := e.Do("GET", "/metrics", nil, h); res.Status != 401 || strings.Contains(string(res.Body), "herald_") {
			t.Errorf("/metrics with %s: %d %.80s, want 401", name, res.Status, res.Body)
		}
	}
	metrics := string(e.Must(e.Do("GET", "/metrics", nil, e.MetricsHeaders()), 200, "metrics").Body)
	for _, tn := range []*tenant{a, b} {
		for _, v := range []string{tn.marker, tn.user, tn.device, tn.creds.APIKey, tn.topicIdent, tn.workflowIdent, fmt.Sprintf("/v1/clients/%d/", tn.client)} {
			if strings.Contains(metrics, v) {
				t.Errorf("/metrics shows %q of %s", v, tn.marker)
			}
		}
	}
	// The probes: the same constant documents for everyone, naming a dependency at most
	// (Temporal does not answer in this world), never an error text or tenant data.
	for path, want := range map[string]string{"/livez": `{"status":"alive"}`, "/readyz": `{"reasons":["temporal: unreachable"],"status":"not ready"}`} {
		for name, h := range map[string]stacktest.Headers{"no credentials": nil, "an app's API secret": a.headers(e, "/v3/"), "a console session": a.headers(e, "/v1/")} {
			if res := e.Do("GET", path, nil, h); string(res.Body) != want {
				t.Errorf("%s with %s: %d %s, want %s", path, name, res.Status, res.Body, want)
			}
		}
	}
	// Without a token (the default), /metrics is not on the API at all: its own listener,
	// 127.0.0.1:9464 by default, serves it.
	untokened := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.Ops.MetricsToken = "" }})
	if res := untokened.Do("GET", "/metrics", nil, stacktest.Headers{"Authorization": "Bearer " + tok}); res.Status != 404 {
		t.Errorf("/metrics on the API without HERALD_METRICS_TOKEN: %d, want 404 (served on its own listener)", res.Status)
	}
	t.Logf("public routes: %d unsigned or wrongly signed webhook calls refused, nothing written; the signed ones applied; plans identical for everyone; /metrics refused without its token (7 ways), without tenant data, and off the API without HERALD_METRICS_TOKEN; /livez and /readyz constant for everyone", refused)
}
