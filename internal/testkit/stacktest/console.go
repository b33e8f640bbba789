package stacktest

import (
	"fmt"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// ConsoleURL is the console address the console helpers configure.
const ConsoleURL = "https://console.example.com"

// Console drives the console's account routes for a test: sign-up with the e-mailed
// verification code (read from a real SMTP server of the test), sign-in, clients, apps.
type Console struct {
	E    *Env
	Mail *smtptest.Server
}

// NewWithConsole starts a stack (as New does) whose system e-mails go to a fresh SMTP
// server of the test, with the console at ConsoleURL.
func NewWithConsole(t testing.TB, opts Options) (*Env, *Console) {
	t.Helper()
	mail := smtptest.Start(t)
	configure := opts.Configure
	opts.Configure = func(c *config.Config) {
		c.Console.SMTPHost, c.Console.SMTPPort = mail.Host, mail.Port
		c.Console.URL = ConsoleURL
		c.Console.Origins = []string{ConsoleURL}
		c.Console.FilesDir = t.TempDir()
		if configure != nil {
			configure(c)
		}
	}
	e := New(t, opts)
	return e, &Console{E: e, Mail: mail}
}

// Bearer is the Authorization header of a token.
func Bearer(tok string) Headers { return Headers{"Authorization": "Bearer " + tok} }

// Must fails the test unless the response has the status.
func (e *Env) Must(res *Response, status int, what string) *Response {
	e.T.Helper()
	if res.Status != status {
		e.T.Fatalf("%s: status %d, want %d: %s", what, res.Status, status, res.Body)
	}
	return res
}

// SignIn is a signed-in console account.
type SignIn struct {
	Email, AccessToken, RefreshToken string
}

// User signs up an account with password, verifies its address with the e-mailed code,
// and signs in.
func (c *Console) User(email, password string) SignIn {
	e := c.E
	e.T.Helper()
	e.Must(e.Do("POST", "/v1/auth/signup?redirect=/welcome", map[string]string{"email": email, "password": password, "name": "Test"}, nil), 201, "sign up "+email)
	code := c.Mail.Last(e.T, email).Find(e.T, `verificationCode=([A-Za-z0-9_-]+)`)
	e.Must(e.Do("POST", "/v1/auth/verify/"+code, map[string]string{"password": password}, nil), 200, "verify "+email)
	in := e.Must(e.Do("POST", "/v1/auth?redirect=/apps", map[string]string{"email": email, "password": password}, nil), 200, "sign in "+email).Map(e.T)
	return SignIn{Email: email, AccessToken: in["accessToken"].(string), RefreshToken: in["refreshToken"].(string)}
}

// Client creates a client owned by the token's account and returns its id.
func (c *Console) Client(tok, name string) int64 {
	c.E.T.Helper()
	return int64(c.E.Must(c.E.Do("POST", "/v1/clients", map[string]string{"name": name}, Bearer(tok)), 201, "create client").Map(c.E.T)["id"].(float64))
}

// App creates an app under a client and returns the answer (id, apiKey, apiSecret, …).
func (c *Console) App(tok string, client int64, name string) map[string]any {
	c.E.T.Helper()
	return c.E.Must(c.E.Do("POST", fmt.Sprintf("/v1/clients/%d/apps", client), map[string]string{"name": name}, Bearer(tok)), 201, "create app").Map(c.E.T)
}
