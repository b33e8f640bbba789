package v1_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestConsoleWalk is the path of a new customer: sign up, verify the address from the
// email, sign in, create a client and an app, reveal the app's secret and send a
// notification with those credentials.
func TestConsoleWalk(t *testing.T) {
	e := newEnv(t)
	res := must(t, e.Do("POST", "/v1/auth/signup?redirect=https://console.example.com/welcome",
		map[string]string{"email": "ada@example.com", "password": password, "name": "Ada"}, nil), 201, "sign up")
	up := res.Map(t)
	if up["redirect"] != "https://console.example.com/welcome" || up["verificationRequired"] != true {
		t.Errorf("sign-up answer %v", up)
	}

	// Not verified yet: signing in is refused, as a wrong password is (so sign-up plus
	// sign-in cannot tell a new address from a taken one).
	if res := e.Do("POST", "/v1/auth?redirect=/apps", map[string]string{"email": "ada@example.com", "password": password}, nil); res.Status != 401 || !strings.Contains(string(res.Body), "not verified yet") {
		t.Fatalf("unverified sign-in: %d %s", res.Status, res.Body)
	}
	mail := e.Mail.Last(t, "ada@example.com")
	if !strings.Contains(mail.Subject(), "Verify") {
		t.Errorf("subject %q", mail.Subject())
	}
	link := mail.Find(t, `(https://console\.example\.com/welcome\?verificationCode=[A-Za-z0-9_-]+)`)
	code := link[strings.Index(link, "=")+1:]
	must(t, e.Do("POST", "/v1/auth/verify/"+code, map[string]string{"password": password}, nil), 200, "verify")
	if res := e.Do("POST", "/v1/auth/verify/"+code, nil, nil); res.Status != 404 {
		t.Errorf("second use of the verification code: %d", res.Status)
	}

	in := must(t, e.Do("POST", "/v1/auth?redirect=/apps", map[string]string{"email": "ADA@example.com", "password": password}, nil), 200, "sign in").Map(t)
	if in["redirect"] != "/apps" || in["tokenType"] != "Bearer" || in["refreshToken"] == "" {
		t.Fatalf("sign-in answer %v", in)
	}
	tok := in["accessToken"].(string)
	me := must(t, e.Do("GET", "/v1/auth/me", nil, bearer(tok)), 200, "me").Map(t)
	if me["email"] != "ada@example.com" || me["emailVerified"] != true {
		t.Errorf("me %v", me)
	}

	client := e.client(t, tok, "Acme")
	app := e.app(t, tok, client, "Production")
	appID := int64(app["id"].(float64))
	sec := must(t, e.Do("GET", fmt.Sprintf("/v1/apps/%d/secret", appID), nil, bearer(tok)), 200, "secret").Map(t)
	if sec["apiSecret"] != app["apiSecret"] || sec["apiKey"] != app["apiKey"] {
		t.Fatalf("secret answer %v vs created %v", sec, app)
	}

	h := map[string]string{e.Cfg.HeaderPrefix + "API-KEY": sec["apiKey"].(string), e.Cfg.HeaderPrefix + "API-SECRET": sec["apiSecret"].(string)}
	res = e.Do("POST", "/v3/notifications", `{"notification":{"title":"Hello from the console"},"sendTo":{"recipients":["alice"]}}`, h)
	must(t, res, 202, "send with the app's credentials")
	if res.Map(t)["requestId"] == "" {
		t.Error("no requestId")
	}
}
