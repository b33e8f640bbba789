package v3_test

import (
	"context"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

const (
	shopOrigin  = "https://shop.example"
	otherOrigin = "https://other.example"
)

// corsFixture is a stack whose plain app allows shopOrigin, whose "other" app allows
// otherOrigin, and whose secure app allows any origin.
func corsFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	ctx := context.Background()
	for id, origins := range map[int64][]string{f.plain.AppID: {shopOrigin}, f.other.AppID: {otherOrigin}, f.secure.AppID: {"*"}} {
		if err := f.e.Stack.Apps.SetAllowedOrigins(ctx, id, origins); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func preflight(f *fixture, path, origin, method, headers string) *stacktest.Response {
	h := stacktest.Headers{"Origin": origin, "Access-Control-Request-Method": method}
	if headers != "" {
		h["Access-Control-Request-Headers"] = headers
	}
	return f.e.Do("OPTIONS", path, nil, h)
}

func withOrigin(h stacktest.Headers, origin string) stacktest.Headers {
	out := stacktest.Headers{"Origin": origin}
	for k, v := range h {
		out[k] = v
	}
	return out
}

func wantAllowed(t *testing.T, what string, res *stacktest.Response, origin string) {
	t.Helper()
	if got := res.Header.Get("Access-Control-Allow-Origin"); got != origin {
		t.Errorf("%s: Access-Control-Allow-Origin = %q, want %q (status %d)", what, got, origin, res.Status)
	}
	if !strings.Contains(res.Header.Get("Vary"), "Origin") {
		t.Errorf("%s: Vary = %q, want Origin in it", what, res.Header.Get("Vary"))
	}
}

func wantRefused(t *testing.T, what string, res *stacktest.Response) {
	t.Helper()
	for _, h := range []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers"} {
		if got := res.Header.Get(h); got != "" {
			t.Errorf("%s: %s = %q, want none (status %d)", what, h, got, res.Status)
		}
	}
}

func TestCORSAllowedOrigin(t *testing.T) {
	f := corsFixture(t)
	key := "?apiKey=" + f.plain.APIKey
	userHeaders := "x-service-api-key, x-service-user-id, content-type"

	res := preflight(f, "/v3/notifications"+key, shopOrigin, "GET", userHeaders)
	if res.Status != 204 {
		t.Fatalf("preflight status %d", res.Status)
	}
	wantAllowed(t, "preflight", res, shopOrigin)
	if got := res.Header.Get("Access-Control-Allow-Methods"); got != "GET" {
		t.Errorf("Allow-Methods = %q, want GET", got)
	}
	allowH := strings.ToLower(res.Header.Get("Access-Control-Allow-Headers"))
	for _, h := range []string{"x-service-api-key", "x-service-user-id", "authorization", "content-type"} {
		if !strings.Contains(allowH, h) {
			t.Errorf("Allow-Headers %q lacks %s", allowH, h)
		}
	}
	if strings.Contains(allowH, "secret") {
		t.Errorf("Allow-Headers %q offers a secret header", allowH)
	}
	res = preflight(f, "/v3/notifications/abc/reads"+key, shopOrigin, "DELETE", userHeaders)
	wantAllowed(t, "preflight of a parameter route", res, shopOrigin)
	if got := res.Header.Get("Access-Control-Allow-Methods"); got != "POST, DELETE" {
		t.Errorf("Allow-Methods = %q, want POST, DELETE", got)
	}
	wantAllowed(t, "preflight of mark all read", preflight(f, "/v3/notifications/markAllNotificationsAsRead"+key, shopOrigin, "POST", userHeaders), shopOrigin)
	wantAllowed(t, "preflight of preferences", preflight(f, "/v3/preferences"+key, shopOrigin, "PATCH", userHeaders), shopOrigin)

	// Actual requests: answers, errors included, are readable by the page.
	res = f.e.Do("GET", "/v3/notifications", nil, withOrigin(f.e.UserHeaders("alice"), shopOrigin))
	if res.Status != 200 {
		t.Fatalf("list: %d %s", res.Status, res.Body)
	}
	wantAllowed(t, "list", res, shopOrigin)
	if !strings.Contains(res.Header.Get("Access-Control-Expose-Headers"), "X-Request-Id") {
		t.Errorf("Expose-Headers = %q", res.Header.Get("Access-Control-Expose-Headers"))
	}
	res = f.e.Do("GET", "/v3/preferences"+key, nil, stacktest.Headers{"Origin": shopOrigin, "Authorization": "Bearer not-a-jwt"})
	if res.Status != 401 {
		t.Fatalf("bad token: %d", res.Status)
	}
	wantAllowed(t, "401 of a bad token", res, shopOrigin)
	// A token naming the app in its claim needs no key anywhere else.
	tok := f.token(f.plain, "alice")
	res = f.e.Do("POST", "/v3/sdk/realtimeTokenRequests", nil, stacktest.Headers{"Origin": shopOrigin, "Authorization": "Bearer " + tok})
	if res.Status != 200 {
		t.Fatalf("realtime token: %d %s", res.Status, res.Body)
	}
	wantAllowed(t, "token with apiKey claim", res, shopOrigin)
	// The origin is compared the way browsers send it.
	wantAllowed(t, "default port", f.e.Do("GET", "/v3/profile", nil, withOrigin(f.e.UserHeaders("alice"), "https://shop.example:443")), "https://shop.example:443")
	// Socket.IO (long-polling is cross-origin XHR).
	res = preflight(f, "/socket.io/?EIO=4&transport=polling&apiKey="+f.plain.APIKey, shopOrigin, "POST", "content-type")
	wantAllowed(t, "socket.io preflight", res, shopOrigin)
	res = f.e.Do("GET", "/socket.io/?EIO=4&transport=polling&apiKey="+f.plain.APIKey, nil, stacktest.Headers{"Origin": shopOrigin})
	wantAllowed(t, "socket.io request", res, shopOrigin)
}

func TestCORSDisallowedOrigin(t *testing.T) {
	f := corsFixture(t)
	key := "?apiKey=" + f.plain.APIKey
	for _, origin := range []string{"https://evil.example", "http://shop.example", "https://shop.example:8443", "https://sub.shop.example", "null"} {
		wantRefused(t, "preflight from "+origin, preflight(f, "/v3/notifications"+key, origin, "GET", "x-service-api-key"))
		res := f.e.Do("GET", "/v3/notifications", nil, withOrigin(f.e.UserHeaders("alice"), origin))
		wantRefused(t, "list from "+origin, res)
		wantRefused(t, "socket.io from "+origin, preflight(f, "/socket.io/?EIO=4&transport=polling&apiKey="+f.plain.APIKey, origin, "POST", ""))
	}
	// Without the app named, a preflight cannot be answered.
	wantRefused(t, "preflight without apiKey", preflight(f, "/v3/notifications", shopOrigin, "GET", "x-service-api-key"))
	wantRefused(t, "preflight with an unknown apiKey", preflight(f, "/v3/notifications?apiKey=nope", shopOrigin, "GET", ""))
	// An app without origins allows none.
	wantRefused(t, "hmac app", f.e.Do("GET", "/v3/categories?apiKey="+f.hmac.APIKey, nil, stacktest.Headers{"Origin": shopOrigin}))
}

func TestCORSAnyOrigin(t *testing.T) {
	f := corsFixture(t)
	key := "?apiKey=" + f.secure.APIKey
	for _, origin := range []string{"https://anything.example", "http://localhost:3000"} {
		wantAllowed(t, "preflight from "+origin, preflight(f, "/v3/notifications/markAllNotificationsAsSeen"+key, origin, "POST", "authorization"), origin)
		tok := f.token(f.secure, "alice")
		res := f.e.Do("GET", "/v3/notifications"+key, nil, stacktest.Headers{"Origin": origin, "Authorization": "Bearer " + tok})
		if res.Status != 200 {
			t.Fatalf("list: %d %s", res.Status, res.Body)
		}
		wantAllowed(t, "list from "+origin, res, origin)
	}
}

// Routes that take the API secret never answer CORS, even for an app allowing "*".
func TestCORSNeverOnSecretRoutes(t *testing.T) {
	f := corsFixture(t)
	key := "?apiKey=" + f.secure.APIKey
	origin := "https://anything.example"
	for _, r := range []struct{ method, path string }{
		{"POST", "/v3/notifications"}, {"POST", "/v3/users"}, {"PUT", "/v3/users/alice"}, {"DELETE", "/v3/users/alice"},
		{"POST", "/v3/categories"}, {"DELETE", "/v3/categories/1"}, {"GET", "/v3/topics"}, {"POST", "/v3/topics"},
		{"GET", "/v3/topics/subscriptions/alice"}, {"POST", "/v3/workflows/cancel"}, {"GET", "/v3/workflows/schedules"},
	} {
		wantRefused(t, "preflight "+r.method+" "+r.path, preflight(f, r.path+key, origin, r.method, "x-service-api-key, x-service-api-secret"))
		wantRefused(t, "preflight "+r.method+" "+r.path+" without the secret header", preflight(f, r.path+key, origin, r.method, "x-service-api-key"))
		h := withOrigin(appH(f.secure), origin)
		wantRefused(t, r.method+" "+r.path, f.e.Do(r.method, r.path, map[string]any{}, h))
	}
	// A user route read with app credentials (a backend) gets none either, and a preflight
	// asking to send the secret is refused.
	wantRefused(t, "list with the secret", f.e.Do("GET", "/v3/notifications?userIdentifier=alice", nil, withOrigin(appH(f.secure), origin)))
	wantRefused(t, "list with the secret key header", f.e.Do("GET", "/v3/notifications"+key, nil, stacktest.Headers{"Origin": origin, prefix + "SECRET-KEY": "x"}))
	wantRefused(t, "preflight asking for the secret", preflight(f, "/v3/notifications"+key, origin, "GET", "X-Service-Api-Key,X-SERVICE-API-SECRET"))
	wantRefused(t, "preflight asking for the secret key", preflight(f, "/v3/notifications"+key, origin, "GET", "x-service-secret-key"))
}

// An app's origins apply to that app only.
func TestCORSAnotherAppsOrigins(t *testing.T) {
	f := corsFixture(t)
	// plain allows shopOrigin, other allows otherOrigin.
	wantRefused(t, "plain's key from other's origin", preflight(f, "/v3/notifications?apiKey="+f.plain.APIKey, otherOrigin, "GET", ""))
	wantRefused(t, "plain's user from other's origin", f.e.Do("GET", "/v3/notifications", nil, withOrigin(f.e.UserHeaders("alice"), otherOrigin)))
	wantRefused(t, "other's key in the query, plain's in the header", f.e.Do("GET", "/v3/notifications?apiKey="+f.other.APIKey, nil, withOrigin(f.e.UserHeaders("alice"), otherOrigin)))
	wantAllowed(t, "other's user from other's origin", f.e.Do("GET", "/v3/notifications", nil, withOrigin(userH(f.other, "alice"), otherOrigin)), otherOrigin)
}
