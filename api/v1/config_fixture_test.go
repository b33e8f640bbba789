package v1_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// fixture is a client "Acme" with an app and a member of each role, and a stranger who
// owns another client: the cast of the configuration route tests.
type fixture struct {
	*env
	owner, admin, dev, viewer, stranger string
	client                              int64
	appEnt                              map[string]any
	appID                               int64
	appPath                             string
	strangerApp                         string
	smtp                                *smtptest.Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return fixtureOn(t, newEnv(t))
}

// fixtureOn casts the fixture on a running env.
func fixtureOn(t *testing.T, e *env) *fixture {
	t.Helper()
	f := &fixture{env: e, smtp: smtptest.Start(t)}
	f.owner = e.user(t, "owner@example.com")
	f.client = e.client(t, f.owner, "Acme")
	f.appEnt = e.app(t, f.owner, f.client, "Development")
	f.appID = int64(f.appEnt["id"].(float64))
	f.appPath = fmt.Sprintf("/v1/apps/%d", f.appID)
	f.admin = e.member(t, f.owner, f.client, "admin@example.com", "admin")
	f.dev = e.member(t, f.owner, f.client, "dev@example.com", "developer")
	f.viewer = e.member(t, f.owner, f.client, "viewer@example.com", "viewer")
	f.stranger = e.user(t, "stranger@example.com")
	other := e.client(t, f.stranger, "Other")
	f.strangerApp = fmt.Sprintf("/v1/apps/%d", int64(e.app(t, f.stranger, other, "Theirs")["id"].(float64)))
	return f
}

// call is one request of a table and what must come back.
type call struct {
	name         string
	method, path string
	body         any
	// as is the caller's token; empty sends none.
	as     string
	status int
	// msgs are the exact messages of a 400.
	msgs []string
	// check looks at the answer further.
	check func(t *testing.T, res *stacktest.Response)
}

// run sends the calls in order.
func (f *fixture) run(t *testing.T, calls []call) {
	t.Helper()
	for _, c := range calls {
		var h stacktest.Headers
		if c.as != "" {
			h = bearer(c.as)
		}
		res := f.Do(c.method, c.path, c.body, h)
		if res.Status != c.status {
			t.Errorf("%s (%s %s): status %d, want %d: %s", c.name, c.method, c.path, res.Status, c.status, res.Body)
			continue
		}
		if c.msgs != nil {
			if got := errMessages(t, res); !slices.Equal(got, c.msgs) {
				t.Errorf("%s: messages\n got %q\nwant %q", c.name, got, c.msgs)
			}
		}
		if c.check != nil {
			c.check(t, res)
		}
	}
}

// do sends one request as a caller and requires the status; it returns the answer.
func (f *fixture) do(t *testing.T, as, method, path string, body any, status int) *stacktest.Response {
	t.Helper()
	return must(t, f.Do(method, path, body, bearer(as)), status, method+" "+path)
}

// id reads a numeric field of an object answer.
func id(t *testing.T, res *stacktest.Response) int64 {
	t.Helper()
	v, ok := res.Map(t)["id"].(float64)
	if !ok {
		t.Fatalf("no id in %s", res.Body)
	}
	return int64(v)
}

// smtpConfig is an SMTP instance configuration pointing at the test server.
func (f *fixture) smtpConfig(extra map[string]any) map[string]any {
	c := map[string]any{"host": f.smtp.Host, "port": f.smtp.Port, "security": "none", "from": "noreply@acme.test", "fromName": "Acme"}
	for k, v := range extra {
		c[k] = v
	}
	return c
}

func contains(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
