package v1_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/console"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// consoleHeaders marks a request as the console web app's.
var consoleHeaders = stacktest.Headers{"X-Herald-Console": "1"}

// refreshCookie finds the console's refresh cookie in an answer.
func refreshCookie(t *testing.T, res *stacktest.Response) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == "herald_console_refresh" {
			return c
		}
	}
	return nil
}

func withCookie(h stacktest.Headers, c *http.Cookie) stacktest.Headers {
	return withHeader(h, "Cookie", c.Name+"="+c.Value)
}

// TestConsoleSignInSetsAStrictHTTPOnlyCookie: a console sign-in gets the refresh token in
// an httpOnly, SameSite=Strict cookie scoped to /v1/auth (Secure behind https), and the
// JSON answer leaves it out; other clients keep the JSON token and get no cookie.
func TestConsoleSignInSetsAStrictHTTPOnlyCookie(t *testing.T) {
	e := newEnv(t)
	e.signUp(t, "cookie@example.com")
	body := map[string]string{"email": "cookie@example.com", "password": password}

	res := must(t, e.Do("POST", "/v1/auth?redirect=/", body, consoleHeaders), 200, "console sign in")
	c := refreshCookie(t, res)
	if c == nil {
		t.Fatalf("no refresh cookie: %v", res.Header)
	}
	if !strings.HasPrefix(c.Value, "hrt_") || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/v1/auth" || c.MaxAge <= 0 || c.Secure {
		t.Errorf("cookie over http: %+v", c)
	}
	m := res.Map(t)
	if m["refreshToken"] != "" || m["accessToken"] == "" {
		t.Errorf("console answer: refreshToken %q accessToken %q", m["refreshToken"], m["accessToken"])
	}

	res = must(t, e.Do("POST", "/v1/auth?redirect=/", body, withHeader(consoleHeaders, "X-Forwarded-Proto", "https")), 200, "console sign in over https")
	if c := refreshCookie(t, res); c == nil || !c.Secure {
		t.Errorf("cookie over https: %+v", c)
	}

	res = must(t, e.Do("POST", "/v1/auth?redirect=/", body, nil), 200, "API sign in")
	if c := refreshCookie(t, res); c != nil {
		t.Errorf("a non-console sign-in set a cookie: %+v", c)
	}
	if tok, _ := res.Map(t)["refreshToken"].(string); !strings.HasPrefix(tok, "hrt_") {
		t.Errorf("the JSON answer lost its refresh token: %q", tok)
	}
}

// TestConsoleRefreshUsesTheCookieAndRefusesCSRF: the cookie buys a working access token
// and is rotated (the old one then ends the session); without the console header, or
// from another origin, the route refuses and rotates nothing.
func TestConsoleRefreshUsesTheCookieAndRefusesCSRF(t *testing.T) {
	e := newEnv(t)
	e.signUp(t, "refresh@example.com")
	res := must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "refresh@example.com", "password": password}, consoleHeaders), 200, "sign in")
	first := refreshCookie(t, res)

	// CSRF: the cookie alone, or with a foreign Origin, is refused.
	must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withCookie(nil, first)), 403, "refresh without the header")
	must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withHeader(withCookie(consoleHeaders, first), "Origin", "https://evil.example")), 403, "refresh from another origin")
	must(t, e.Do("POST", "/v1/auth/console/refresh", nil, consoleHeaders), 204, "refresh without a cookie")

	res = must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withCookie(consoleHeaders, first)), 200, "refresh")
	second := refreshCookie(t, res)
	if second == nil || second.Value == first.Value || !second.HttpOnly {
		t.Fatalf("rotated cookie: %+v", second)
	}
	m := res.Map(t)
	if m["refreshToken"] != "" {
		t.Errorf("refresh answer shows the refresh token")
	}
	access := m["accessToken"].(string)
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(access)), 200, "me with the refreshed token")

	// Within the grace after its rotation, the old cookie (a page reloaded while its refresh
	// was answered) still works once per request and gets a new token.
	res = must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withCookie(consoleHeaders, first)), 200, "the old cookie within the grace")
	if third := refreshCookie(t, res); third == nil || third.Value == first.Value || third.Value == second.Value {
		t.Fatalf("refresh within the grace: cookie %+v", third)
	}
	access = res.Map(t)["accessToken"].(string)

	// Past the grace, replaying the rotated cookie ends the session and clears the cookie.
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), `UPDATE console_sessions SET refreshed_at = refreshed_at - $1::interval`,
		fmt.Sprintf("%d seconds", int(console.RefreshGrace.Seconds())+1)); err != nil {
		t.Fatal(err)
	}
	res = must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withCookie(consoleHeaders, first)), 401, "replay")
	if c := refreshCookie(t, res); c == nil || c.Value != "" {
		t.Errorf("a failed refresh keeps the cookie: %+v", c)
	}
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(access)), 401, "me after the replay")
}

// TestConsoleSignOutEndsTheSessionServerSide: signing out revokes the session (its access
// token and its refresh cookie stop working) and clears the cookie.
func TestConsoleSignOutEndsTheSessionServerSide(t *testing.T) {
	e := newEnv(t)
	e.signUp(t, "out@example.com")
	res := must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "out@example.com", "password": password}, consoleHeaders), 200, "sign in")
	cookie, access := refreshCookie(t, res), res.Map(t)["accessToken"].(string)

	res = must(t, e.Do("POST", "/v1/auth/signout", nil, withHeader(bearer(access), "X-Herald-Console", "1")), 200, "sign out")
	if c := refreshCookie(t, res); c == nil || c.Value != "" || !c.Expires.Before(time.Now()) {
		t.Errorf("sign-out does not clear the cookie: %+v", c)
	}
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(access)), 401, "access token after sign-out")
	must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withCookie(consoleHeaders, cookie)), 401, "refresh cookie after sign-out")
}
