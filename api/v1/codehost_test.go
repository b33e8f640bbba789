package v1_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
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

func TestCodeHostSignIn(t *testing.T) {
	fake := newFakeCodeHost(t)
	e := newEnv(t, func(c *config.Config) {
		c.Console.CodeHostClientID, c.Console.CodeHostClientSecret = "cid", "csecret"
		c.Console.CodeHostAuthURL = fake.URL + "/login/oauth/authorize"
		c.Console.CodeHostTokenURL = fake.URL + "/login/oauth/access_token"
		c.Console.CodeHostAPIURL = fake.URL + "/api"
		c.Console.CodeHostRedirectURL = "https://console.example.com/auth/codehost"
	})
	start := must(t, e.Do("GET", "/v1/ee/auth/codehost?redirect=/apps", nil, nil), 200, "start").Map(t)
	u, err := url.Parse(start["url"].(string))
	if err != nil || !strings.HasPrefix(start["url"].(string), fake.URL+"/login/oauth/authorize?") {
		t.Fatalf("authorize URL %v", start["url"])
	}
	q := u.Query()
	state := start["state"].(string)
	if q.Get("client_id") != "cid" || q.Get("state") != state || q.Get("redirect_uri") != "https://console.example.com/auth/codehost" || q.Get("response_type") != "code" {
		t.Errorf("authorize query %v", q)
	}
	if res := e.Do("GET", "/v1/ee/auth/codehost?redirect=https://evil.example.net", nil, nil); res.Status != 400 {
		t.Errorf("open redirect: %d", res.Status)
	}

	in := must(t, e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "good-code", "state": state}, nil), 200, "sign in").Map(t)
	if in["redirect"] != "/apps" || in["accessToken"] == nil {
		t.Fatalf("answer %v", in)
	}
	me := must(t, e.Do("GET", "/v1/auth/me", nil, bearer(in["accessToken"].(string))), 200, "me").Map(t)
	if me["email"] != "octo@example.com" || me["emailVerified"] != true || me["name"] != "Octo Cat" || me["hasPassword"] != false {
		t.Errorf("me %v", me)
	}
	if len(fake.exchange) != 1 || fake.exchange[0].Get("redirect_uri") != "https://console.example.com/auth/codehost" {
		t.Errorf("token exchange %v", fake.exchange)
	}
	// The same code-host account signs in to the same console user.
	again := must(t, e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "good-code", "state": state}, nil), 200, "again").Map(t)
	if again["user"].(map[string]any)["id"] != me["id"] {
		t.Errorf("second sign-in made another user: %v vs %v", again["user"], me)
	}
	// A password account with the code host's verified address is linked, not duplicated.
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "linked@example.com", "password": password}, nil), 201, "sign up")
	fake.mu.Lock()
	fake.email, fake.id = "linked@example.com", 77
	fake.mu.Unlock()
	linked := must(t, e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "good-code", "state": state}, nil), 200, "link").Map(t)
	if u := linked["user"].(map[string]any); u["email"] != "linked@example.com" || u["hasPassword"] != true || u["emailVerified"] != true {
		t.Errorf("linked user %v", u)
	}

	if res := e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "bad-code", "state": state}, nil); res.Status != 401 {
		t.Errorf("bad code: %d", res.Status)
	}
	if res := e.Do("POST", "/v1/ee/auth/codehost", map[string]string{"code": "good-code", "state": state + "x"}, nil); res.Status != 401 {
		t.Errorf("forged state: %d", res.Status)
	}
	if got := errMessages(t, must(t, e.Do("POST", "/v1/ee/auth/codehost", map[string]any{"code": 1}, nil), 400, "bad body")); len(got) != 2 {
		t.Errorf("%q", got)
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
