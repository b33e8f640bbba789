package v1_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
)

const sendBody = `{"notification":{"title":"Hi"},"sendTo":{"recipients":["ann","bob"]}}`

func TestQuotaIsEnforcedAtTheBoundary(t *testing.T) {
	e := newEnv(t, withPlans(3), func(c *config.Config) { c.Ops.QuotaMode = "enforce" })
	a := e.tenant(t, "quota@example.com")
	h := e.appHeaders(a.app)

	// N-1 and N are accepted, through the developer API and the console's test send alike.
	must(t, e.Do("POST", "/v3/notifications", sendBody, h), 202, "send 1")
	must(t, e.Do("POST", a.appPath("/notifications"), sendBody, bearer(a.tok)), 202, "send 2 (N-1) from the console")
	third := must(t, e.Do("POST", "/v3/notifications", sendBody, withHeader(h, "Idempotency-Key", "k1")), 202, "send 3 (N)").Map(t)["requestId"]

	// N+1 is refused, with the reason and when the quota resets.
	month := time.Now().UTC().Format("2006-01")
	next := time.Date(time.Now().UTC().Year(), time.Now().UTC().Month()+1, 1, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
	want := fmt.Sprintf("monthly quota reached: the Free plan allows 3 notifications a month and 3 were sent in %s; upgrade the plan or wait until %s", month, next)
	res := e.Do("POST", "/v3/notifications", sendBody, h)
	wantError(t, res, 429, want)
	if ra := res.Header.Get("Retry-After"); ra == "" || ra == "1" {
		t.Errorf("Retry-After %q should point at the next month", ra)
	}
	wantError(t, e.Do("POST", a.appPath("/notifications"), sendBody, bearer(a.tok)), 429, want)
	// Repeating an accepted send under its Idempotency-Key is no new notification; a new key is.
	if again := must(t, e.Do("POST", "/v3/notifications", sendBody, withHeader(h, "Idempotency-Key", "k1")), 202, "repeat").Map(t)["requestId"]; again != third {
		t.Errorf("repeat answered %v, first %v", again, third)
	}
	wantError(t, e.Do("POST", "/v3/notifications", sendBody, withHeader(h, "Idempotency-Key", "k2")), 429, want)

	u := must(t, e.Do("GET", a.clientPath("/usage"), nil, bearer(a.tok)), 200, "client usage").Map(t)
	if u["notifications"] != 3.0 || u["recipients"] != 6.0 || u["quota"] != 3.0 || u["remaining"] != 0.0 || u["overQuota"] != true ||
		u["enforcement"] != "enforce" || u["plan"] != "free" || u["month"] != month {
		t.Errorf("client usage %v", u)
	}
	apps := u["apps"].([]any)
	if len(apps) != 1 || apps[0].(map[string]any)["notifications"] != 3.0 {
		t.Errorf("apps %v", apps)
	}
	if hist := u["history"].([]any); len(hist) != 12 || hist[0].(map[string]any)["month"] != month {
		t.Errorf("history %v", hist)
	}

	// Another client's sends are counted apart.
	b := e.tenant(t, "other@example.com")
	must(t, e.Do("POST", "/v3/notifications", sendBody, e.appHeaders(b.app)), 202, "other client's send")
}

func TestQuotaReportModeNeverRefuses(t *testing.T) {
	e := newEnv(t, withPlans(1)) // report is the default mode
	a := e.tenant(t, "report@example.com")
	for i := 0; i < 3; i++ {
		must(t, e.Do("POST", "/v3/notifications", sendBody, e.appHeaders(a.app)), 202, "send over quota in report mode")
	}
	u := must(t, e.Do("GET", a.clientPath("/usage"), nil, bearer(a.tok)), 200, "usage").Map(t)
	if u["notifications"] != 3.0 || u["quota"] != 1.0 || u["overQuota"] != true || u["enforcement"] != "report" {
		t.Errorf("usage %v", u)
	}
	au := must(t, e.Do("GET", a.appPath("/usage"), nil, bearer(a.tok)), 200, "app usage").Map(t)
	if au["notifications"] != 3.0 || au["recipients"] != 6.0 || au["appId"] != float64(a.appID) || len(au["history"].([]any)) != 12 {
		t.Errorf("app usage %v", au)
	}
}

func TestUsageRoutesCheckTheCaller(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "u1@example.com")
	b := e.tenant(t, "u2@example.com")
	viewer := e.member(t, a.tok, a.client, "v@example.com", "viewer")
	must(t, e.Do("GET", a.appPath("/usage"), nil, bearer(viewer)), 200, "viewer reads app usage")
	must(t, e.Do("GET", a.clientPath("/usage"), nil, bearer(viewer)), 200, "viewer reads client usage")
	for _, p := range []string{a.appPath("/usage"), a.clientPath("/usage")} {
		wantError(t, e.Do("GET", p, nil, nil), 401, "sign in first: send the access token as Authorization: Bearer <token>")
		if res := e.Do("GET", p, nil, bearer(b.tok)); res.Status != 404 {
			t.Errorf("another client's %s: %d", p, res.Status)
		}
	}
	// A CLI token acts on its own client only.
	cli := must(t, e.Do("POST", a.clientPath("/cli-token"), map[string]string{"name": "ci"}, bearer(a.tok)), 201, "cli token").Map(t)["token"].(string)
	must(t, e.Do("GET", a.clientPath("/usage"), nil, bearer(cli)), 200, "usage with a CLI token")
	if res := e.Do("GET", b.clientPath("/usage"), nil, bearer(cli)); res.Status != 404 {
		t.Errorf("another client's usage with a CLI token: %d", res.Status)
	}
	wantMessages(t, e.Do("GET", "/v1/apps/x/usage", nil, bearer(a.tok)), "appId must be a positive integer")
	wantMessages(t, e.Do("GET", "/v1/clients/0/usage", nil, bearer(a.tok)), "clientId must be a positive integer")
	if !strings.Contains(string(must(t, e.Do("GET", "/v1/openapi.json", nil, nil), 200, "doc").Body), "/v1/clients/{clientId}/usage") {
		t.Error("usage route not documented")
	}
}
