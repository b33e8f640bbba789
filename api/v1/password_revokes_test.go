package v1_test

import (
	"fmt"
	"testing"
)

// TestPasswordChangesRevokeCLITokens: changing the password ends the other sessions and
// revokes every CLI token of the account, in each of its clients (the current session
// stays); a password reset ends every session and revokes the CLI tokens made since; the
// audit log records how many were revoked; another member's token is untouched.
func TestPasswordChangesRevokeCLITokens(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "pw@example.com")
	meID := int64(must(t, e.Do("GET", "/v1/auth/me", nil, bearer(owner)), 200, "me").Map(t)["id"].(float64))
	acme, other := e.client(t, owner, "Acme"), e.client(t, owner, "Other")
	cli := func(tok string, client int64) string {
		return must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/cli-token", client), map[string]string{"name": "laptop"}, bearer(tok)), 201, "cli token").Map(t)["token"].(string)
	}
	works := func(tok, what string, status int) {
		t.Helper()
		must(t, e.Do("GET", "/v1/auth/validate", nil, bearer(tok)), status, what)
	}
	acmeToken, otherToken := cli(owner, acme), cli(owner, other)
	dev := e.member(t, owner, acme, "dev@example.com", "developer")
	devToken := cli(dev, acme)
	second := e.signIn(t, "pw@example.com")["accessToken"].(string)

	must(t, e.Do("PUT", fmt.Sprintf("/v1/clientUsers/%d/password", meID), map[string]string{"currentPassword": password, "newPassword": "a changed password"}, bearer(owner)), 200, "change password")
	works(owner, "the session that changed the password", 200)
	works(second, "another session after the change", 401)
	works(acmeToken, "a CLI token after the change", 401)
	works(otherToken, "a CLI token of another client after the change", 401)
	works(devToken, "another member's CLI token", 200)
	for _, client := range []int64{acme, other} {
		events, _ := e.auditLog(t, owner, client, "action=auth.password_changed")
		if len(events) != 1 || find(events, "auth.password_changed", map[string]any{"details.cliTokensRevoked": 2, "details.sessionsEnded": "others"}) == nil {
			t.Errorf("client %d: password_changed events %v", client, events)
		}
	}

	// A reset revokes the token made after the change, and every session.
	fresh := cli(owner, acme)
	must(t, e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": "pw@example.com"}, nil), 201, "reset request")
	code := e.Mail.Last(t, "pw@example.com").Find(t, `resetCode=([A-Za-z0-9_-]+)`)
	must(t, e.Do("POST", "/v1/auth/resetPassword", map[string]string{"code": code, "password": password}, nil), 201, "reset")
	works(fresh, "a CLI token after the reset", 401)
	works(owner, "the session after the reset", 401)
	works(devToken, "another member's CLI token after the reset", 200)
	owner = e.signIn(t, "pw@example.com")["accessToken"].(string)
	events, _ := e.auditLog(t, owner, acme, "action=auth.password_reset")
	if len(events) != 1 || find(events, "auth.password_reset", map[string]any{"details.cliTokensRevoked": 1, "details.sessionsEnded": "all"}) == nil {
		t.Errorf("password_reset events %v", events)
	}
}
