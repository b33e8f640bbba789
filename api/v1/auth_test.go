package v1_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
)

func TestSignUpRejectsBadBodies(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		path string
		body any
		want []string
	}{
		{"/v1/auth/signup?redirect=/w", map[string]any{"email": 5, "password": "short"}, []string{"email must be a string", "password must be at least 8 characters"}},
		{"/v1/auth/signup", map[string]any{"email": "not-an-email", "password": password}, []string{"redirect is required", "email must be an email address"}},
		{"/v1/auth/signup?redirect=/w", `[1]`, []string{"body must be a JSON object"}},
		{"/v1/auth/signup?redirect=/w", nil, []string{"email should not be empty", "password should not be empty"}},
	}
	for _, tc := range cases {
		res := must(t, e.Do("POST", tc.path, tc.body, nil), 400, tc.path)
		if got := errMessages(t, res); !slices.Equal(got, tc.want) {
			t.Errorf("%v: got %q, want %q", tc.body, got, tc.want)
		}
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM console_users").Scan(&n); err != nil || n != 0 {
		t.Errorf("bad sign-ups wrote %d users (%v)", n, err)
	}
}

// TestSignUpDoesNotTellWhetherAnAddressIsTaken: signing up with a taken address answers
// exactly as for a new one (201, the same body), changes nothing of the account, and
// emails its owner instead; signing in with the password just chosen then fails the same
// way for both, so the pair of calls cannot probe addresses either.
func TestSignUpDoesNotTellWhetherAnAddressIsTaken(t *testing.T) {
	e := newEnv(t)
	e.signUp(t, "bo@example.com")
	chosen := "an attacker's password"
	answer := func(email string) (int, map[string]any) {
		res := e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": email, "password": chosen, "name": "X"}, nil)
		m := res.Map(t)
		if m["email"] != email {
			t.Errorf("%s: answer names %v", email, m["email"])
		}
		delete(m, "email")
		return res.Status, m
	}
	takenStatus, taken := answer("BO@example.com")
	newStatus, fresh := answer("new@example.com")
	if takenStatus != 201 || newStatus != 201 || fmt.Sprint(taken) != fmt.Sprint(fresh) {
		t.Errorf("taken: %d %v; new: %d %v", takenStatus, taken, newStatus, fresh)
	}
	if _, ok := fresh["user"]; ok {
		t.Errorf("the answer shows the account: %v", fresh)
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM console_users WHERE lower(email) = 'bo@example.com'").Scan(&n); err != nil || n != 1 {
		t.Errorf("%d accounts for bo (%v)", n, err)
	}
	// The owner of the taken address hears of it; the new address gets its verification link.
	mail := e.Mail.Last(t, "bo@example.com")
	if !strings.Contains(mail.Subject(), "Someone tried to sign up") || !strings.Contains(mail.Body(), "https://console.example.com/forgot-password") {
		t.Errorf("email to the taken address: %q %s", mail.Subject(), mail.Body())
	}
	if !strings.Contains(e.Mail.Last(t, "new@example.com").Subject(), "Verify") {
		t.Error("no verification email to the new address")
	}
	// The account keeps its password; the chosen one fails the same way as on the new,
	// unverified account.
	e.signIn(t, "bo@example.com")
	in := func(email string) string {
		res := must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": email, "password": chosen}, nil), 401, "sign in "+email)
		return string(res.Body)
	}
	if a, b := in("bo@example.com"), in("new@example.com"); a != b {
		t.Errorf("sign-in tells the accounts apart: %s vs %s", a, b)
	}
	// Signing up again with an address not verified yet sends its owner a fresh link in the
	// same notice, which verifies the account with the password chosen in that step.
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "new@example.com", "password": "a third password"}, nil), 201, "sign up again")
	again := e.Mail.Last(t, "new@example.com")
	if !strings.Contains(again.Subject(), "Someone tried to sign up") {
		t.Errorf("second sign-up email %q", again.Subject())
	}
	must(t, e.Do("POST", "/v1/auth/verify/"+again.Find(t, `verificationCode=([A-Za-z0-9_-]+)`), map[string]string{"password": chosen}, nil), 200, "verify from the notice")
	must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "new@example.com", "password": chosen}, nil), 200, "sign in with the password chosen at verification")
	// The attempt is on bo's record (bo belongs to no client yet: operators only).
	var action string
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), "SELECT action FROM audit_events WHERE action = 'auth.signup_existing_email' AND target_label = 'bo@example.com'").Scan(&action); err != nil {
		t.Errorf("no audit event for the attempt: %v", err)
	}
}

func TestRedirectMustStayOnTheConsole(t *testing.T) {
	e := newEnv(t)
	e.signUp(t, "cy@example.com")
	bad := []string{
		"https://evil.example.net/x", "//evil.example.net", "javascript:alert(1)", "https://console.example.com.evil.net/",
		"/\\evil.example.net", "https://user@console.example.com/", "evil", "ftp://console.example.com/",
	}
	for _, r := range bad {
		res := e.Do("POST", "/v1/auth?redirect="+urlQuery(r), map[string]string{"email": "cy@example.com", "password": password}, nil)
		if res.Status != 400 {
			t.Errorf("redirect %q: status %d %s", r, res.Status, res.Body)
			continue
		}
		if got := errMessages(t, res); len(got) != 1 || got[0] != "redirect must be a path such as /apps or a URL on an allowed console origin (HERALD_CONSOLE_ORIGINS)" {
			t.Errorf("redirect %q: %q", r, got)
		}
		if res := e.Do("POST", "/v1/auth/passwordResetRequests?redirect="+urlQuery(r), map[string]string{"email": "cy@example.com"}, nil); res.Status != 400 {
			t.Errorf("reset redirect %q: status %d", r, res.Status)
		}
	}
	for _, r := range []string{"/apps?tab=1", "https://console.example.com/apps", "https://CONSOLE.example.com/x"} {
		res := must(t, e.Do("POST", "/v1/auth?redirect="+urlQuery(r), map[string]string{"email": "cy@example.com", "password": password}, nil), 200, r)
		if got := res.Map(t)["redirect"]; got != r {
			t.Errorf("redirect echoed %v, want %q", got, r)
		}
	}
}

func TestSignInIsThrottledPerAccountAndPerAddress(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Console.SignInMaxFailuresPerIP = 8 })
	e.signUp(t, "dan@example.com")
	wrong := map[string]string{"email": "dan@example.com", "password": "wrong password"}
	for i := range 5 {
		if res := e.Do("POST", "/v1/auth?redirect=/", wrong, nil); res.Status != 401 {
			t.Fatalf("attempt %d: %d %s", i+1, res.Status, res.Body)
		}
	}
	// Locked: even the right password is refused, with a Retry-After.
	res := e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "dan@example.com", "password": password}, nil)
	if res.Status != 429 {
		t.Fatalf("after 5 failures: %d %s", res.Status, res.Body)
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 60 {
		t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
	}

	// Per address: failures spread over accounts lock the address for every account.
	e.signUp(t, "eve@example.com")
	for i := range 3 {
		e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "nobody" + strconv.Itoa(i) + "@example.com", "password": "x"}, nil)
	}
	if res := e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "eve@example.com", "password": password}, nil); res.Status != 429 {
		t.Errorf("address over its limit: %d %s", res.Status, res.Body)
	}
}

func TestSessionsRefreshRotateAndSignOut(t *testing.T) {
	e := newEnv(t)
	e.signUp(t, "fay@example.com")
	in := e.signIn(t, "fay@example.com")
	tok, refresh := in["accessToken"].(string), in["refreshToken"].(string)

	must(t, e.Do("GET", "/v1/auth/validate", nil, bearer(tok)), 200, "validate")
	if res := e.Do("GET", "/v1/auth/validate", nil, nil); res.Status != 401 {
		t.Errorf("validate without a token: %d", res.Status)
	}
	if res := e.Do("GET", "/v1/auth/me", nil, bearer(tok+"x")); res.Status != 401 {
		t.Errorf("tampered token: %d", res.Status)
	}

	next := must(t, e.Do("POST", "/v1/auth/refresh", map[string]string{"refreshToken": refresh}, nil), 200, "refresh").Map(t)
	if next["refreshToken"] == refresh {
		t.Fatal("refresh token did not rotate")
	}
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(next["accessToken"].(string))), 200, "new access token")
	// Replaying the old refresh token ends the session: the new tokens stop working too.
	if res := e.Do("POST", "/v1/auth/refresh", map[string]string{"refreshToken": refresh}, nil); res.Status != 401 {
		t.Fatalf("replayed refresh token: %d", res.Status)
	}
	if res := e.Do("GET", "/v1/auth/me", nil, bearer(next["accessToken"].(string))); res.Status != 401 {
		t.Errorf("session after refresh-token replay: %d", res.Status)
	}

	in = e.signIn(t, "fay@example.com")
	tok, refresh = in["accessToken"].(string), in["refreshToken"].(string)
	must(t, e.Do("POST", "/v1/auth/signout", nil, bearer(tok)), 200, "sign out")
	if res := e.Do("GET", "/v1/auth/me", nil, bearer(tok)); res.Status != 401 {
		t.Errorf("access token after sign-out: %d", res.Status)
	}
	if res := e.Do("POST", "/v1/auth/refresh", map[string]string{"refreshToken": refresh}, nil); res.Status != 401 {
		t.Errorf("refresh token after sign-out: %d", res.Status)
	}
	if got := errMessages(t, must(t, e.Do("POST", "/v1/auth/refresh", map[string]any{"refreshToken": 1}, nil), 400, "bad refresh body")); !slices.Equal(got, []string{"refreshToken must be a string"}) {
		t.Errorf("bad refresh body: %q", got)
	}
}

func TestPasswordResetAndResend(t *testing.T) {
	e := newEnv(t)
	// Unverified account: resend sends a second verification email.
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "gus@example.com", "password": password}, nil), 201, "sign up")
	must(t, e.Do("POST", "/v1/auth/resendVerificationEmail", map[string]string{"email": "gus@example.com"}, nil), 200, "resend")
	if n := e.Mail.Count("gus@example.com"); n != 2 {
		t.Fatalf("%d emails", n)
	}
	// Unknown addresses get the same answer and no email.
	must(t, e.Do("POST", "/v1/auth/resendVerificationEmail", map[string]string{"email": "nobody@example.com"}, nil), 200, "resend unknown")
	must(t, e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": "nobody@example.com"}, nil), 201, "reset unknown")
	if n := e.Mail.Count("nobody@example.com"); n != 0 {
		t.Errorf("%d emails to an unknown address", n)
	}

	e.signUp(t, "hal@example.com")
	old := e.signIn(t, "hal@example.com")["accessToken"].(string)
	must(t, e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": "hal@example.com"}, nil), 201, "reset request")
	code := e.Mail.Last(t, "hal@example.com").Find(t, `https://console\.example\.com/reset\?resetCode=([A-Za-z0-9_-]+)`)
	res := must(t, e.Do("POST", "/v1/auth/resetPassword", map[string]string{"code": code, "password": "short"}, nil), 400, "short password")
	if got := errMessages(t, res); !slices.Equal(got, []string{"password must be at least 8 characters"}) {
		t.Errorf("%q", got)
	}
	must(t, e.Do("POST", "/v1/auth/resetPassword", map[string]string{"code": code, "password": "a brand new password"}, nil), 201, "reset")
	if res := e.Do("POST", "/v1/auth/resetPassword", map[string]string{"code": code, "password": "another new password"}, nil); res.Status != 404 {
		t.Errorf("reset code reused: %d", res.Status)
	}
	if res := e.Do("GET", "/v1/auth/me", nil, bearer(old)); res.Status != 401 {
		t.Errorf("old session after reset: %d", res.Status)
	}
	if res := e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "hal@example.com", "password": password}, nil); res.Status != 401 {
		t.Errorf("old password: %d", res.Status)
	}
	must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "hal@example.com", "password": "a brand new password"}, nil), 200, "new password")

	// Requested emails are limited to 5 per address, known or not (hal has used two: its
	// sign-up and one reset).
	for addr, n := range map[string]int{"hal@example.com": 3, "ghost@example.com": 5} {
		for i := range n {
			if res := e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": addr}, nil); res.Status != 201 {
				t.Fatalf("%s request %d: %d", addr, i+1, res.Status)
			}
		}
		if res := e.Do("POST", "/v1/auth/resendVerificationEmail", map[string]string{"email": addr}, nil); res.Status != 429 {
			t.Errorf("%s over the email limit: %d", addr, res.Status)
		}
	}
}

func TestOnboardingAndAccount(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "ivy@example.com")
	must(t, e.Do("POST", "/v1/auth/onboarding", map[string]any{"step": "create-app"}, bearer(tok)), 202, "onboarding")
	must(t, e.Do("POST", "/v1/auth/onboarding", map[string]any{"done": true}, bearer(tok)), 202, "onboarding")
	got := must(t, e.Do("GET", "/v1/auth/onboarding", nil, bearer(tok)), 200, "get onboarding").Map(t)["onboarding"].(map[string]any)
	if got["step"] != "create-app" || got["done"] != true {
		t.Errorf("onboarding %v", got)
	}
	if res := e.Do("POST", "/v1/auth/onboarding", `[1]`, bearer(tok)); res.Status != 400 {
		t.Errorf("array body: %d", res.Status)
	}
	if res := e.Do("GET", "/v1/auth/onboarding", nil, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}

	me := must(t, e.Do("GET", "/v1/auth/me", nil, bearer(tok)), 200, "me").Map(t)
	id := strconv.Itoa(int(me["id"].(float64)))
	must(t, e.Do("PATCH", "/v1/clientUsers/"+id, map[string]string{"name": "Ivy"}, bearer(tok)), 200, "rename")
	if got := must(t, e.Do("GET", "/v1/clientUsers/"+id, nil, bearer(tok)), 200, "get").Map(t)["name"]; got != "Ivy" {
		t.Errorf("name %v", got)
	}
	must(t, e.Do("PUT", "/v1/clientUsers/"+id+"/password", map[string]string{"currentPassword": "wrong", "newPassword": "a new password!"}, bearer(tok)), 403, "wrong current password")
	must(t, e.Do("PUT", "/v1/clientUsers/"+id+"/password", map[string]string{"currentPassword": password, "newPassword": "a new password!"}, bearer(tok)), 200, "change password")
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(tok)), 200, "the changing session stays")

	other := e.user(t, "jay@example.com")
	if res := e.Do("GET", "/v1/clientUsers/"+id, nil, bearer(other)); res.Status != 404 {
		t.Errorf("a stranger's account: %d", res.Status)
	}
	if res := e.Do("PATCH", "/v1/clientUsers/"+id, map[string]string{"name": "x"}, bearer(other)); res.Status != 404 {
		t.Errorf("renaming a stranger: %d", res.Status)
	}
}

// TestInvalidUTF8IsRefused: {"name": "\xff\xfe\xfd"} is refused with the 400 a NUL
// character gets, instead of being stored as replacement characters.
func TestInvalidUTF8IsRefused(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "utf@example.com")
	for _, body := range []string{"{\"name\":\"\xff\xfe\xfd\"}", `{"name":"a\u0000b"}`} {
		res := must(t, e.Do("POST", "/v1/clients", body, bearer(tok)), 400, "bad text")
		if got := errMessages(t, res); !slices.Equal(got, []string{"text must be valid UTF-8 without NUL characters"}) {
			t.Errorf("%q: %q", body, got)
		}
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM clients").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d clients stored (%v)", n, err)
	}
}
