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
	// was answered) still works once and gets a token of its own.
	res = must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withCookie(consoleHeaders, first)), 200, "the old cookie within the grace")
	if third := refreshCookie(t, res); third == nil || third.Value == first.Value || third.Value == second.Value {
		t.Fatalf("refresh within the grace: cookie %+v", third)
	}
	access = res.Map(t)["accessToken"].(string)

	// Past the grace, replaying the rotated cookie ends the session and clears the cookie.
	e.ageRefreshTokens(t, console.RefreshGrace+time.Second)
	res = must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withCookie(consoleHeaders, first)), 401, "replay")
	if c := refreshCookie(t, res); c == nil || c.Value != "" {
		t.Errorf("a failed refresh keeps the cookie: %+v", c)
	}
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(access)), 401, "me after the replay")
}

// ageRefreshTokens moves every rotation of a refresh token d into the past (the grace is
// measured with the database's clock).
func (e *env) ageRefreshTokens(t *testing.T, d time.Duration) {
	t.Helper()
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), `UPDATE console_refresh_tokens SET used_at = used_at - $1::interval WHERE used_at IS NOT NULL`,
		fmt.Sprintf("%d milliseconds", d.Milliseconds())); err != nil {
		t.Fatal(err)
	}
}

// refreshReuseEvents counts the auth.refresh_reuse events of the account (any client).
func (e *env) refreshReuseEvents(t *testing.T, email string) []string {
	t.Helper()
	rows, err := e.Stack.DB.Pool.Query(context.Background(), `SELECT details->>'reason' FROM audit_events WHERE action = 'auth.refresh_reuse' AND target_label = $1 ORDER BY id`, email)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestRefreshGraceKeepsTheNewestTokenOfTheFamily: a thief replaying the stolen cookie
// within the grace after the owner's refresh gets a token of its own but does not
// displace the owner's newest one; a second replay, or any token of the family presented
// after it was rotated outside the grace, revokes the whole session (every access and
// refresh token of it) and is audited as auth.refresh_reuse.
func TestRefreshGraceKeepsTheNewestTokenOfTheFamily(t *testing.T) {
	e := newEnv(t)
	e.signUp(t, "family@example.com")
	signIn := func() *http.Cookie {
		res := must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "family@example.com", "password": password}, consoleHeaders), 200, "sign in")
		return refreshCookie(t, res)
	}
	refresh := func(c *http.Cookie, status int, what string) (*http.Cookie, string) {
		res := must(t, e.Do("POST", "/v1/auth/console/refresh", nil, withCookie(consoleHeaders, c)), status, what)
		if status != 200 {
			return nil, ""
		}
		return refreshCookie(t, res), res.Map(t)["accessToken"].(string)
	}

	// The owner refreshes; the thief replays the stolen cookie inside the grace.
	stolen := signIn()
	owner, _ := refresh(stolen, 200, "owner refreshes")
	thief, thiefAccess := refresh(stolen, 200, "thief replays within the grace")
	if thief.Value == owner.Value {
		t.Fatalf("the replay got the owner's token")
	}
	// The owner's newest token still works, and keeps working after the thief's replay.
	owner2, ownerAccess := refresh(owner, 200, "owner's newest token after the replay")
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(ownerAccess)), 200, "owner's access token")
	if got := e.refreshReuseEvents(t, "family@example.com"); len(got) != 0 {
		t.Fatalf("reuse recorded for a replay within the grace: %v", got)
	}
	// The owner's rotation retired the thief's sibling with no grace of its own: the
	// thief's next refresh revokes the family.
	refresh(thief, 401, "thief's sibling after the owner rotated")
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(ownerAccess)), 401, "owner's access token after the family was revoked")
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(thiefAccess)), 401, "thief's access token after the family was revoked")
	refresh(owner2, 401, "owner's newest refresh token after the family was revoked")
	if got := e.refreshReuseEvents(t, "family@example.com"); len(got) != 1 || got[0] != "grace_spent" {
		t.Fatalf("reuse events %v", got)
	}

	// A second replay within the grace revokes the family.
	stolen = signIn()
	owner, _ = refresh(stolen, 200, "owner refreshes")
	refresh(stolen, 200, "first replay within the grace")
	refresh(stolen, 401, "second replay within the grace")
	refresh(owner, 401, "owner's token after the second replay")

	// A replay outside the grace revokes the family, and an older token of it too.
	stolen = signIn()
	owner, _ = refresh(stolen, 200, "owner refreshes")
	owner, ownerAccess = refresh(owner, 200, "owner refreshes again")
	e.ageRefreshTokens(t, console.RefreshGrace+time.Second)
	refresh(stolen, 401, "replay outside the grace")
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(ownerAccess)), 401, "owner's access token after the replay")
	refresh(owner, 401, "owner's newest token after the replay")
	if got := e.refreshReuseEvents(t, "family@example.com"); len(got) != 3 || got[1] != "grace_spent" || got[2] != "outside_grace" {
		t.Fatalf("reuse events %v", got)
	}
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
