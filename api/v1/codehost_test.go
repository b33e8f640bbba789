package v1_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// fakeCodeHost is a GitHub-compatible OAuth2 provider that records what Herald sends.
type fakeCodeHost struct {
	*httptest.Server
	mu       sync.Mutex
	email    string
	id       int
	exchange []url.Values
}

func newFakeCodeHost(t *testing.T) *fakeCodeHost {
	f := &fakeCodeHost{email: "octo@example.com", id: 4242}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login/oauth/access_token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		form := r.PostForm
		if u, p, ok := r.BasicAuth(); ok {
			form.Set("client_id", u)
			form.Set("client_secret", p)
		}
		f.mu.Lock()
		f.exchange = append(f.exchange, form)
		f.mu.Unlock()
		if form.Get("code") != "good-code" || form.Get("client_id") != "cid" || form.Get("client_secret") != "csecret" {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]string{"error": "bad_verification_code"})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"access_token": "gho_token", "token_type": "bearer", "scope": "read:user,user:email"})
	})
	authed := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer gho_token" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			h(w, r)
		}
	}
	mux.HandleFunc("GET /api/user", authed(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"id": f.id, "login": "octocat", "name": "Octo Cat"})
	}))
	mux.HandleFunc("GET /api/user/emails", authed(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		json.NewEncoder(w).Encode([]map[string]any{
			{"email": "unverified@example.com", "primary": false, "verified": false},
			{"email": f.email, "primary": true, "verified": true},
		})
	}))
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// codeHostEnv is a stack whose code host is fake.
func codeHostEnv(t *testing.T, fake *fakeCodeHost, configure ...func(*config.Config)) *env {
	return newEnv(t, append([]func(*config.Config){func(c *config.Config) {
		c.Console.CodeHostClientID, c.Console.CodeHostClientSecret = "cid", "csecret"
		c.Console.CodeHostAuthURL = fake.URL + "/login/oauth/authorize"
		c.Console.CodeHostTokenURL = fake.URL + "/login/oauth/access_token"
		c.Console.CodeHostAPIURL = fake.URL + "/api"
		c.Console.CodeHostRedirectURL = "https://console.example.com/auth/codehost"
	}}, configure...)...)
}

// nonceCookie finds the code-host nonce cookie in an answer.
func nonceCookie(t *testing.T, res *stacktest.Response) *http.Cookie {
	t.Helper()
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == "herald_codehost_nonce" {
			return c
		}
	}
	return nil
}

// startCodeHost starts a code-host sign-in and returns its state and this browser's
// nonce cookie.
func (e *env) startCodeHost(t *testing.T, redirect string) (string, *http.Cookie) {
	t.Helper()
	res := must(t, e.Do("GET", "/v1/ee/auth/codehost?redirect="+redirect, nil, nil), 200, "start")
	c := nonceCookie(t, res)
	if c == nil || c.Value == "" {
		t.Fatalf("no nonce cookie: %v", res.Header)
	}
	return res.Map(t)["state"].(string), c
}

// codeHostCallback completes a code-host sign-in from the browser holding cookie.
func (e *env) codeHostCallback(t *testing.T, state string, cookie *http.Cookie, status int, what string) map[string]any {
	t.Helper()
	res := must(t, e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "good-code", "state": state}, withCookie(nil, cookie)), status, what)
	if status != 200 {
		return nil
	}
	return res.Map(t)
}

func TestCodeHostSignIn(t *testing.T) {
	fake := newFakeCodeHost(t)
	e := codeHostEnv(t, fake)
	res := must(t, e.Do("GET", "/v1/ee/auth/codehost?redirect=/apps", nil, nil), 200, "start")
	start, cookie := res.Map(t), nonceCookie(t, res)
	u, err := url.Parse(start["url"].(string))
	if err != nil || !strings.HasPrefix(start["url"].(string), fake.URL+"/login/oauth/authorize?") {
		t.Fatalf("authorize URL %v", start["url"])
	}
	q := u.Query()
	state := start["state"].(string)
	if q.Get("client_id") != "cid" || q.Get("state") != state || q.Get("redirect_uri") != "https://console.example.com/auth/codehost" || q.Get("response_type") != "code" {
		t.Errorf("authorize query %v", q)
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/v1/ee/auth/codehost" || cookie.MaxAge != 600 || cookie.Secure ||
		strings.Contains(string(res.Body), cookie.Value) {
		t.Errorf("nonce cookie over http: %+v", cookie)
	}
	if res := e.Do("GET", "/v1/ee/auth/codehost?redirect=https://evil.example.net", nil, nil); res.Status != 400 {
		t.Errorf("open redirect: %d", res.Status)
	}

	res = must(t, e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "good-code", "state": state}, withCookie(nil, cookie)), 200, "sign in")
	in := res.Map(t)
	if in["redirect"] != "/apps" || in["accessToken"] == nil {
		t.Fatalf("answer %v", in)
	}
	if c := nonceCookie(t, res); c == nil || c.Value != "" || !c.Expires.Before(time.Now()) {
		t.Errorf("the nonce cookie is not cleared after use: %+v", c)
	}
	me := must(t, e.Do("GET", "/v1/auth/me", nil, bearer(in["accessToken"].(string))), 200, "me").Map(t)
	if me["email"] != "octo@example.com" || me["emailVerified"] != true || me["name"] != "Octo Cat" || me["hasPassword"] != false {
		t.Errorf("me %v", me)
	}
	if len(fake.exchange) != 1 || fake.exchange[0].Get("redirect_uri") != "https://console.example.com/auth/codehost" {
		t.Errorf("token exchange %v", fake.exchange)
	}
	// The same code-host account signs in to the same console user.
	again := e.codeHostCallback(t, state, cookie, 200, "again")
	if again["user"].(map[string]any)["id"] != me["id"] {
		t.Errorf("second sign-in made another user: %v vs %v", again["user"], me)
	}
	// A verified password account with the code host's verified address is linked, not
	// duplicated, and keeps its password.
	e.signUp(t, "linked@example.com")
	fake.mu.Lock()
	fake.email, fake.id = "linked@example.com", 77
	fake.mu.Unlock()
	linked := e.codeHostCallback(t, state, cookie, 200, "link")
	if u := linked["user"].(map[string]any); u["email"] != "linked@example.com" || u["hasPassword"] != true || u["emailVerified"] != true {
		t.Errorf("linked user %v", u)
	}
	e.signIn(t, "linked@example.com")

	if res := e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "bad-code", "state": state}, withCookie(nil, cookie)); res.Status != 401 {
		t.Errorf("bad code: %d", res.Status)
	}
	if res := e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "good-code", "state": state + "x"}, withCookie(nil, cookie)); res.Status != 401 {
		t.Errorf("forged state: %d", res.Status)
	}
	if got := errMessages(t, must(t, e.Do("POST", "/v1/ee/auth/codehost", map[string]any{"code": 1}, nil), 400, "bad body")); len(got) != 2 {
		t.Errorf("%q", got)
	}
}

// TestCodeHostStateIsBoundToTheBrowser: a valid state presented without the nonce cookie
// of the browser that started the sign-in, or with another browser's, is refused before
// the code is exchanged (login CSRF: an attacker's state and code posted from a victim's
// browser would sign the victim in to the attacker's account); over https the cookie is
// Secure.
func TestCodeHostStateIsBoundToTheBrowser(t *testing.T) {
	fake := newFakeCodeHost(t)
	e := codeHostEnv(t, fake, func(c *config.Config) { c.PublicURL = "https://herald.example.com" })
	attackerState, attackerCookie := e.startCodeHost(t, "/apps")
	_, victimCookie := e.startCodeHost(t, "/apps")
	if !attackerCookie.Secure {
		t.Errorf("nonce cookie with an https public URL: %+v", attackerCookie)
	}

	e.codeHostCallback(t, attackerState, &http.Cookie{Name: "other", Value: "x"}, 401, "valid state, no nonce cookie")
	e.codeHostCallback(t, attackerState, victimCookie, 401, "valid state, another browser's nonce cookie")
	e.codeHostCallback(t, attackerState, &http.Cookie{Name: "herald_codehost_nonce", Value: attackerCookie.Value + "x"}, 401, "valid state, a forged nonce")
	e.codeHostCallback(t, attackerState, &http.Cookie{Name: "herald_codehost_nonce", Value: ""}, 401, "valid state, an empty nonce")
	if len(fake.exchange) != 0 {
		t.Fatalf("a refused callback exchanged the code: %v", fake.exchange)
	}
	// The browser that started it signs in.
	e.codeHostCallback(t, attackerState, attackerCookie, 200, "the browser that started it")
}

// TestCodeHostTakesBackAnUnverifiedAccount: an attacker registers the victim's address
// with a password of its own and never verifies it; when the victim signs in with the code
// host (which vouches for the address), the account is the victim's: the attacker's
// password, sessions and CLI tokens are dropped, the address is verified, and
// auth.account_reclaimed is recorded.
func TestCodeHostTakesBackAnUnverifiedAccount(t *testing.T) {
	fake := newFakeCodeHost(t)
	e := codeHostEnv(t, fake)
	const attackerPassword = "the attacker's password"
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "octo@example.com", "password": attackerPassword}, nil), 201, "attacker signs up with the victim's address")
	var userID int64
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), `SELECT id FROM console_users WHERE email = 'octo@example.com'`).Scan(&userID); err != nil {
		t.Fatal(err)
	}
	// Whatever credentials the account may hold (a session made before verification, in
	// case any path ever allows one).
	if _, err := e.Stack.DB.Pool.Exec(t.Context(), `INSERT INTO console_sessions (console_user_id, refresh_hash, expires_at) VALUES ($1, '\x01', now() + interval '1 day')`, userID); err != nil {
		t.Fatal(err)
	}

	state, cookie := e.startCodeHost(t, "/apps")
	in := e.codeHostCallback(t, state, cookie, 200, "victim signs in with the code host")
	if u := in["user"].(map[string]any); u["hasPassword"] != false || u["emailVerified"] != true {
		t.Errorf("taken-back account %v", u)
	}
	must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "octo@example.com", "password": attackerPassword}, nil), 401, "the attacker's password")
	var open int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), `SELECT count(*) FROM console_sessions WHERE console_user_id = $1 AND revoked_at IS NULL`, userID).Scan(&open); err != nil || open != 1 {
		t.Errorf("%d open sessions, want the victim's only (%v)", open, err)
	}
	var details string
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), `SELECT details::text FROM audit_events WHERE action = 'auth.account_reclaimed' AND target_id = $1`, fmt.Sprint(userID)).Scan(&details); err != nil ||
		!strings.Contains(details, `"method": "codehost"`) || !strings.Contains(details, `"passwordDropped": true`) {
		t.Errorf("audit %s (%v)", details, err)
	}
}

// TestVerificationNeverKeepsAPasswordSetBeforeIt: an attacker registers the victim's
// address with its own password; the victim opens the verification email. Verifying with
// a password makes that one the account's; verifying without one drops the password set
// at sign-up. Either way the attacker's password does not open the account.
func TestVerificationNeverKeepsAPasswordSetBeforeIt(t *testing.T) {
	e := newEnv(t)
	const attackerPassword = "the attacker's password"
	for _, victim := range []struct{ email, password string }{{"victim@example.com", "the victim's own password"}, {"quiet@example.com", ""}} {
		must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": victim.email, "password": attackerPassword}, nil), 201, "attacker signs up with "+victim.email)
		code := e.Mail.Last(t, victim.email).Find(t, `verificationCode=([A-Za-z0-9_-]+)`)
		if got := errMessages(t, must(t, e.Do("POST", "/v1/auth/verify/"+code, map[string]any{"password": "short"}, nil), 400, "short password")); len(got) != 1 || got[0] != "password must be at least 8 characters" {
			t.Errorf("%q", got)
		}
		must(t, e.Do("POST", "/v1/auth/verify/"+code, map[string]any{"password": 5}, nil), 400, "password not a string")
		var body any
		if victim.password != "" {
			body = map[string]string{"password": victim.password}
		}
		u := must(t, e.Do("POST", "/v1/auth/verify/"+code, body, nil), 200, "the victim verifies").Map(t)
		if u["emailVerified"] != true || u["hasPassword"] != (victim.password != "") {
			t.Errorf("%s: verified user %v", victim.email, u)
		}
		must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": victim.email, "password": attackerPassword}, nil), 401, "the attacker's password after "+victim.email+" verified")
		if victim.password != "" {
			must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": victim.email, "password": victim.password}, nil), 200, "the victim's password")
		}
	}
	var n int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), `SELECT count(*) FROM audit_events WHERE action = 'auth.account_reclaimed' AND target_label = 'quiet@example.com' AND details->>'method' = 'email_verification'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d account_reclaimed events for the dropped password (%v)", n, err)
	}
}

func TestCodeHostOffByDefault(t *testing.T) {
	e := newEnv(t)
	if res := e.Do("GET", "/v1/ee/auth/codehost?redirect=/", nil, nil); res.Status != 404 {
		t.Errorf("start: %d", res.Status)
	}
	if res := e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "c", "state": "s"}, nil); res.Status != 404 {
		t.Errorf("sign in: %d", res.Status)
	}
}

func TestSignUpCaptcha(t *testing.T) {
	var mu sync.Mutex
	var seen []url.Values
	verify := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		mu.Lock()
		seen = append(seen, r.PostForm)
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]bool{"success": r.PostForm.Get("response") == "human" && r.PostForm.Get("secret") == "capsecret"})
	}))
	defer verify.Close()
	e := newEnv(t, func(c *config.Config) { c.Console.CaptchaSecret, c.Console.CaptchaVerifyURL = "capsecret", verify.URL })
	body := map[string]string{"email": "cap@example.com", "password": password}
	res := must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", body, nil), 400, "no captcha")
	if got := errMessages(t, res); len(got) != 1 || got[0] != "captchaToken should not be empty" {
		t.Errorf("%q", got)
	}
	body["captchaToken"] = "robot"
	res = must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", body, nil), 400, "failed captcha")
	if got := errMessages(t, res); len(got) != 1 || got[0] != "captchaToken is not valid" {
		t.Errorf("%q", got)
	}
	body["captchaToken"] = "human"
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", body, nil), 201, "passed captcha")
	if len(seen) != 2 || seen[1].Get("remoteip") != "127.0.0.1" {
		t.Errorf("verify requests %v", seen)
	}
}
