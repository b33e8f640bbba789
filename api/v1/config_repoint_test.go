package v1_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// Re-pointing a stored instance (security round 3, item 2): changing where an SMTP
// instance connects (its port here: both test servers are on 127.0.0.1) is refused to
// developers (403) on the instance route, the channel-level routes and with a connection
// test; admins and owners must enter the password again (400 naming it); ordinary keys
// stay the developers'; another tenant's ids are not found. The server playing the
// attacker gets no connection until an admin re-points the instance with a new password,
// and never the stored one.
func TestRepointingAnInstanceNeedsAdminAndItsSecrets(t *testing.T) {
	f := newFixture(t)
	const stored = "stored-pass-7c1d"
	legit, attacker := smtptest.Start(t), smtptest.Start(t)
	legit.Username, legit.Password = "mailer", stored
	attacker.Username, attacker.Password = "mailer", "fresh-pass-2b9a"

	list := f.appPath + "/channels/email/providerInstances"
	res := f.do(t, f.dev, "POST", list+"?test=true", map[string]any{"providerIdentifier": "smtp", "name": "primary",
		"config": map[string]any{"host": legit.Host, "port": legit.Port, "security": "none", "from": "noreply@acme.test", "username": "mailer", "password": stored}}, 201)
	if got := res.Map(t)["connectionTest"]; got != "passed" {
		t.Fatalf("connection test %v", got)
	}
	inst := fmt.Sprintf("%s/%d", list, id(t, res))
	kind := f.appPath + "/channels/email/providers/smtp"
	forbidden := "changing config.port (where the instance connects) needs the owner or admin role"
	reenter := []string{"config.password must be entered again to change config.port: a stored secret is never sent to a new destination"}
	away := map[string]any{"port": attacker.Port}
	awayMasked := map[string]any{"port": attacker.Port, "password": "********"}
	message := func(want string) func(t *testing.T, res *stacktest.Response) {
		return func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t)["message"]; m != want {
				t.Errorf("message %v, want %q", m, want)
			}
		}
	}

	f.run(t, []call{
		{name: "developer re-points", method: "PATCH", path: inst, as: f.dev, status: 403, body: map[string]any{"config": awayMasked}, check: message(forbidden)},
		{name: "developer re-points with a test", method: "PATCH", path: inst + "?test=true", as: f.dev, status: 403, body: map[string]any{"config": away}, check: message(forbidden)},
		{name: "developer turns TLS off", method: "PATCH", path: inst, as: f.dev, status: 403, body: map[string]any{"config": map[string]any{"security": "opportunistic"}},
			check: message("changing config.security (where the instance connects) needs the owner or admin role")},
		{name: "developer through the channel route", method: "PATCH", path: kind, as: f.dev, status: 403, body: map[string]any{"config": away}, check: message(forbidden)},
		{name: "developer through enable", method: "POST", path: kind, as: f.dev, status: 403, body: map[string]any{"config": away, "test": true}, check: message(forbidden)},
		{name: "admin without the password", method: "PATCH", path: inst + "?test=true", as: f.admin, status: 400, body: map[string]any{"config": away}, msgs: reenter},
		{name: "admin with the mask", method: "PATCH", path: inst, as: f.admin, status: 400, body: map[string]any{"config": awayMasked}, msgs: reenter},
		{name: "owner through the channel route", method: "PATCH", path: kind + "?test=true", as: f.owner, status: 400, body: map[string]any{"config": away}, msgs: reenter},
		{name: "owner through enable", method: "POST", path: kind, as: f.owner, status: 400, body: map[string]any{"config": awayMasked}, msgs: reenter},
		{name: "viewer", method: "PATCH", path: inst, as: f.viewer, status: 403, body: map[string]any{"config": map[string]any{"fromName": "x"}}},
		{name: "another tenant's app", method: "PATCH", path: inst, as: f.stranger, status: 404, body: map[string]any{"config": away}},
		{name: "another tenant's instance id", method: "PATCH", path: fmt.Sprintf("%s/channels/email/providerInstances/%d", f.strangerApp, id(t, res)),
			as: f.stranger, status: 404, body: map[string]any{"config": map[string]any{"port": attacker.Port, "password": "x"}}},
		{name: "developer changes an ordinary key and tests", method: "PATCH", path: inst + "?test=true", as: f.dev, status: 200,
			body: map[string]any{"config": map[string]any{"fromName": "Acme Billing", "port": legit.Port, "security": "none", "password": "********"}},
			check: func(t *testing.T, res *stacktest.Response) {
				m := res.Map(t)
				cfg := m["config"].(map[string]any)
				if m["connectionTest"] != "passed" || cfg["fromName"] != "Acme Billing" || cfg["port"] != float64(legit.Port) || cfg["password"] != "********" {
					t.Errorf("%v", m)
				}
			}},
	})
	if n := attacker.Connections(); n != 0 {
		t.Fatalf("the attacker's server got %d connections from refused changes", n)
	}
	got := f.do(t, f.viewer, "GET", inst, nil, 200).Map(t)["config"].(map[string]any)
	if got["port"] != float64(legit.Port) || got["security"] != "none" {
		t.Errorf("a refused change was saved: %v", got)
	}

	// An admin re-points it with the password entered again: the new server gets that one.
	res = f.do(t, f.admin, "PATCH", inst+"?test=true", map[string]any{"config": map[string]any{"port": attacker.Port, "password": attacker.Password}}, 200)
	if res.Map(t)["connectionTest"] != "passed" {
		t.Errorf("re-pointed test: %s", res.Body)
	}
	if pw := attacker.Passwords(); slices.Contains(pw, stored) || !slices.Contains(pw, attacker.Password) {
		t.Errorf("the new destination was offered %q", pw)
	}
}
