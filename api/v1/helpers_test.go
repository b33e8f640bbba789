package v1_test

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) { stacktest.Main(m) }

// env is a running stack whose system emails go to a real SMTP server of the test.
type env struct {
	*stacktest.Env
	Mail *smtptest.Server
}

const password = "correct horse battery"

func newEnv(t *testing.T, configure ...func(*config.Config)) *env {
	t.Helper()
	mail := smtptest.Start(t)
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) {
		c.Console.SMTPHost, c.Console.SMTPPort = mail.Host, mail.Port
		c.Console.URL = "https://console.example.com"
		c.Console.Origins = []string{"https://console.example.com"}
		c.Console.FilesDir = t.TempDir()
		for _, f := range configure {
			f(c)
		}
	}})
	return &env{Env: e, Mail: mail}
}

func bearer(tok string) stacktest.Headers { return stacktest.Headers{"Authorization": "Bearer " + tok} }

// must fails the test unless the response has the status.
func must(t *testing.T, res *stacktest.Response, status int, what string) *stacktest.Response {
	t.Helper()
	if res.Status != status {
		t.Fatalf("%s: status %d, want %d: %s", what, res.Status, status, res.Body)
	}
	return res
}

// signUp creates an account and verifies it with the code from the emailed link.
func (e *env) signUp(t *testing.T, email string) {
	t.Helper()
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/welcome", map[string]string{"email": email, "password": password, "name": "Test"}, nil), 201, "sign up")
	code := e.Mail.Last(t, email).Find(t, `verificationCode=([A-Za-z0-9_-]+)`)
	must(t, e.Do("POST", "/v1/auth/verify/"+code, map[string]string{"password": password}, nil), 200, "verify")
}

// signIn returns the sign-in answer.
func (e *env) signIn(t *testing.T, email string) map[string]any {
	t.Helper()
	return must(t, e.Do("POST", "/v1/auth?redirect=/apps", map[string]string{"email": email, "password": password}, nil), 200, "sign in").Map(t)
}

// user signs up, verifies and signs in, returning the access token.
func (e *env) user(t *testing.T, email string) string {
	t.Helper()
	e.signUp(t, email)
	return e.signIn(t, email)["accessToken"].(string)
}

// client creates a client and returns its id.
func (e *env) client(t *testing.T, tok, name string) int64 {
	t.Helper()
	return int64(must(t, e.Do("POST", "/v1/clients", map[string]string{"name": name}, bearer(tok)), 201, "create client").Map(t)["id"].(float64))
}

// app creates an app under a client.
func (e *env) app(t *testing.T, tok string, client int64, name string) map[string]any {
	t.Helper()
	return must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/apps", client), map[string]string{"name": name}, bearer(tok)), 201, "create app").Map(t)
}

// member adds a console user to a client with a role through an accepted invitation.
func (e *env) member(t *testing.T, ownerTok string, client int64, email, role string) string {
	t.Helper()
	tok := e.user(t, email)
	must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/invite-users?role=%s", client, role), []string{email}, bearer(ownerTok)), 200, "invite")
	code := e.Mail.Last(t, email).Find(t, `/invitations/([A-Za-z0-9_-]+)`)
	must(t, e.Do("GET", "/v1/invitations/"+code+"/accept", nil, bearer(tok)), 200, "accept")
	return tok
}

// errMessages decodes a 400 body's messages.
func errMessages(t *testing.T, res *stacktest.Response) []string {
	t.Helper()
	var out struct{ Message []string }
	res.JSON(t, &out)
	return out.Message
}

func urlQuery(s string) string { return url.QueryEscape(s) }

// withHeader adds one header to a set.
func withHeader(h stacktest.Headers, k, v string) stacktest.Headers {
	out := stacktest.Headers{k: v}
	for hk, hv := range h {
		out[hk] = hv
	}
	return out
}
