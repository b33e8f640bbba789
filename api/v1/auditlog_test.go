package v1_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// auditLog reads a page of a client's audit log.
func (e *env) auditLog(t *testing.T, tok string, client int64, query string) ([]map[string]any, int) {
	t.Helper()
	var page struct {
		Pagination struct{ TotalCount int }
		Data       []map[string]any
	}
	must(t, e.Do("GET", fmt.Sprintf("/v1/auditLogs?clientId=%d&limit=100&%s", client, query), nil, bearer(tok)), 200, "audit log "+query).JSON(t, &page)
	return page.Data, page.Pagination.TotalCount
}

// find returns the first (newest) event with the action whose fields hold every pair of
// want (details.<key> reads the details).
func find(events []map[string]any, action string, want map[string]any) map[string]any {
next:
	for _, ev := range events {
		if ev["action"] != action {
			continue
		}
		for k, v := range want {
			got := ev[k]
			if d, ok := strings.CutPrefix(k, "details."); ok {
				got = ev["details"].(map[string]any)[d]
			}
			if fmt.Sprint(got) != fmt.Sprint(v) {
				continue next
			}
		}
		return ev
	}
	return nil
}

// TestAuditLogRecordsEverySecurityEvent performs each security-relevant action once and
// reads it back from GET /v1/auditLogs: actor, time, address, user agent and target.
func TestAuditLogRecordsEverySecurityEvent(t *testing.T) {
	e := newEnv(t)
	start := time.Now().Add(-time.Minute)
	owner := e.user(t, "olga@example.com")
	client := e.client(t, owner, "Acme")
	me := must(t, e.Do("GET", "/v1/auth/me", nil, bearer(owner)), 200, "me").Map(t)
	ownerID := int64(me["id"].(float64))

	// Sign-ins: success, wrong password, an unknown address (never shown to a client).
	in := e.signIn(t, "olga@example.com")
	must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "olga@example.com", "password": "not the password"}, nil), 401, "wrong password")
	must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "nobody-here@example.com", "password": "x-password"}, nil), 401, "unknown email")

	// Sessions: a replayed refresh token ends its session; sign-out.
	must(t, e.Do("POST", "/v1/auth/refresh", map[string]string{"refreshToken": in["refreshToken"].(string)}, nil), 200, "refresh")
	must(t, e.Do("POST", "/v1/auth/refresh", map[string]string{"refreshToken": in["refreshToken"].(string)}, nil), 401, "replayed refresh token")
	must(t, e.Do("POST", "/v1/auth/signout", nil, bearer(owner)), 200, "sign out")
	owner = e.signIn(t, "olga@example.com")["accessToken"].(string)

	// 2FA: enable, sign in with a wrong code, a right one and a recovery code, new codes,
	// disable.
	secret, recovery := e.enable2FA(t, owner)
	challenge := e.signIn(t, "olga@example.com")["challengeToken"].(string)
	must(t, e.Do("POST", "/v1/ee/auth/2fa/validate", map[string]string{"code": "12x456"}, bearer(challenge)), 401, "wrong TOTP")
	must(t, e.Do("POST", "/v1/ee/auth/2fa/validate", map[string]string{"code": code(t, secret, time.Now().Add(30*time.Second))}, bearer(challenge)), 200, "TOTP sign-in")
	challenge = e.signIn(t, "olga@example.com")["challengeToken"].(string)
	must(t, e.Do("POST", "/v1/ee/auth/2fa/recovery", map[string]string{"recoveryCode": recovery[0]}, bearer(challenge)), 200, "recovery sign-in")
	newCodes := must(t, e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, withHeader(bearer(owner), "X-Two-Factor-Code", recovery[1])), 200, "new recovery codes").Map(t)["recoveryCodes"].([]any)
	must(t, e.Do("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{"code": recovery[2]}, bearer(owner)), 400, "disable with a replaced code")
	fresh := must(t, e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, bearer(owner)), 200, "count").Map(t)
	if fresh["remaining"] != float64(10) {
		t.Fatalf("recovery codes left %v", fresh)
	}

	// Members: invitation created, resent, revoked; another accepted; role change; removal.
	inv := must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/invite-users?role=viewer", client), []string{"gone@example.com"}, bearer(owner)), 200, "invite").JSON
	var invs []map[string]any
	inv(t, &invs)
	invID := int64(invs[0]["id"].(float64))
	must(t, e.Do("POST", fmt.Sprintf("/v1/invitations/%d/resend", invID), nil, bearer(owner)), 200, "resend")
	must(t, e.Do("DELETE", fmt.Sprintf("/v1/clients/%d/clientUserInvitations/%d", client, invID), nil, bearer(owner)), 200, "revoke invitation")
	dev := e.member(t, owner, client, "dev@example.com", "developer")
	devID := int64(must(t, e.Do("GET", "/v1/auth/me", nil, bearer(dev)), 200, "me").Map(t)["id"].(float64))
	must(t, e.Do("PUT", fmt.Sprintf("/v1/clients/%d/clientUsers/%d", client, devID), map[string]string{"role": "admin"}, bearer(owner)), 200, "promote")
	must(t, e.Do("DELETE", fmt.Sprintf("/v1/clients/%d/clientUsers/%d", client, devID), nil, bearer(owner)), 200, "remove")

	// CLI tokens, and secrets revealed through one.
	cli := must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/cli-token", client), map[string]string{"name": "laptop"}, bearer(owner)), 201, "cli token").Map(t)
	cliID := int64(cli["id"].(float64))
	app := e.app(t, owner, client, "Prod")
	appID := int64(app["id"].(float64))
	must(t, e.Do("GET", fmt.Sprintf("/v1/apps/%d/secret", appID), nil, bearer(cli["token"].(string))), 200, "secret via CLI token")
	must(t, e.Do("POST", fmt.Sprintf("/v1/apps/%d/rsa-key", appID), nil, bearer(owner)), 200, "rsa key")
	must(t, e.Do("DELETE", fmt.Sprintf("/v1/clients/%d/cli-token/%d", client, cliID), nil, bearer(owner)), 200, "revoke cli token")

	// Passwords: change, reset (which ends every session), and a sign-up with the address.
	must(t, e.Do("PUT", fmt.Sprintf("/v1/clientUsers/%d/password", ownerID), map[string]string{"currentPassword": password, "newPassword": "a changed password"}, bearer(owner)), 200, "change password")
	must(t, e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": "olga@example.com"}, nil), 201, "reset request")
	reset := e.Mail.Last(t, "olga@example.com").Find(t, `resetCode=([A-Za-z0-9_-]+)`)
	must(t, e.Do("POST", "/v1/auth/resetPassword", map[string]string{"code": reset, "password": password}, nil), 201, "reset")
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "olga@example.com", "password": "someone else's"}, nil), 201, "sign-up with a taken address")
	challenge = e.signIn(t, "olga@example.com")["challengeToken"].(string)
	owner = must(t, e.Do("POST", "/v1/ee/auth/2fa/recovery", map[string]string{"recoveryCode": newCodes[0].(string)}, bearer(challenge)), 200, "sign in after the reset").Map(t)["accessToken"].(string)

	events, total := e.auditLog(t, owner, client, "")
	if total != len(events) {
		t.Fatalf("total %d, %d on the page", total, len(events))
	}
	user := map[string]any{"targetType": "consoleUser", "targetId": ownerID, "targetLabel": "olga@example.com"}
	self := map[string]any{"actorId": ownerID, "actorEmail": "olga@example.com"}
	with := func(ms ...map[string]any) map[string]any {
		out := map[string]any{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	wants := []struct {
		action string
		fields map[string]any
	}{
		{"auth.signin", with(self, user, map[string]any{"details.method": "password"})},
		{"auth.signin", with(self, map[string]any{"details.method": "totp"})},
		{"auth.signin", with(self, map[string]any{"details.method": "recovery_code"})},
		{"auth.signin_failed", with(user, map[string]any{"actorId": nil, "actorEmail": nil, "details.reason": "wrong_password"})},
		{"auth.signin_failed", with(user, map[string]any{"actorId": nil, "details.reason": "wrong_totp_code"})},
		{"auth.refresh_reuse", with(user, map[string]any{"details.reason": "no_grace", "details.sessionRevoked": true})},
		{"auth.signout", self},
		{"auth.2fa_enabled", with(self, user)},
		{"auth.recovery_code_used", map[string]any{"details.for": "sign-in", "details.remaining": 9}},
		{"auth.recovery_code_used", map[string]any{"details.for": "confirmation"}},
		{"auth.recovery_codes_regenerated", with(self, map[string]any{"details.confirmedWith": "recovery_code"})},
		{"invitation.created", with(self, map[string]any{"targetType": "invitation", "targetId": invID, "targetLabel": "gone@example.com", "details.role": "viewer"})},
		{"invitation.resent", map[string]any{"targetId": invID}},
		{"invitation.revoked", map[string]any{"targetId": invID}},
		{"invitation.created", map[string]any{"targetLabel": "dev@example.com", "details.role": "developer"}},
		{"member.joined", map[string]any{"actorId": devID, "targetId": devID, "details.role": "developer"}},
		{"member.role_changed", with(self, map[string]any{"targetId": devID, "targetLabel": "dev@example.com", "details.from": "developer", "details.to": "admin"})},
		{"member.removed", with(self, map[string]any{"targetId": devID, "details.role": "admin", "details.left": false})},
		{"cli_token.created", with(self, map[string]any{"targetType": "cliToken", "targetId": cliID, "targetLabel": "laptop"})},
		{"cli_token.revoked", with(self, map[string]any{"targetId": cliID})},
		{"app.created", with(self, map[string]any{"targetType": "app", "targetId": appID, "targetLabel": "Prod"})},
		{"app.secret_revealed", with(self, map[string]any{"targetId": appID, "viaCliTokenId": cliID})},
		{"app.rsa_key_generated", with(self, map[string]any{"targetId": appID, "viaCliTokenId": nil, "details.privateKeyShown": true})},
		{"auth.password_changed", with(self, user)},
		{"auth.password_reset_requested", user},
		{"auth.password_reset", user},
		{"auth.signup_existing_email", with(user, map[string]any{"actorId": nil})},
	}
	seen := map[string]bool{}
	for _, w := range wants {
		ev := find(events, w.action, w.fields)
		if ev == nil {
			t.Errorf("no %s event with %v", w.action, w.fields)
			continue
		}
		seen[w.action] = true
		at, err := time.Parse(time.RFC3339Nano, ev["createdAt"].(string))
		if err != nil || at.Before(start) || ev["ip"] != "127.0.0.1" || ev["userAgent"] == "" || int64(ev["clientId"].(float64)) != client {
			t.Errorf("%s: time %v, ip %v, user agent %v, client %v", w.action, ev["createdAt"], ev["ip"], ev["userAgent"], ev["clientId"])
		}
	}
	// Nobody acted: actorEmail is null like actorId (docs/console-api.md), never "".
	for _, ev := range events {
		email, present := ev["actorEmail"]
		switch {
		case !present:
			t.Errorf("%s: no actorEmail field", ev["action"])
		case ev["action"] == "auth.signin_failed" && email != nil:
			t.Errorf("a failed sign-in's actorEmail is %#v, want null", email)
		case ev["actorId"] != nil && (email == nil || email == ""):
			t.Errorf("%s by user %v: actorEmail %#v", ev["action"], ev["actorId"], email)
		}
	}
	if events, _ = e.auditLog(t, owner, client, "action=auth.recovery_codes_regenerated"); len(events) != 1 {
		t.Errorf("%d regeneration events", len(events))
	}
	// Failed sign-ins for addresses without an account go nowhere a client can read.
	for _, ev := range mustAll(t, e, owner, client) {
		if strings.Contains(fmt.Sprint(ev), "nobody-here@example.com") {
			t.Errorf("an unknown address's failure is in a client's log: %v", ev)
		}
	}
	var unattached int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM audit_events WHERE client_id IS NULL AND action = 'auth.signin_failed' AND target_label = 'nobody-here@example.com'").Scan(&unattached); err != nil || unattached != 1 {
		t.Errorf("%d operator-only rows for the unknown address (%v)", unattached, err)
	}
	t.Logf("%d events recorded in the client's log; %d actions checked", total, len(seen))
}

func mustAll(t *testing.T, e *env, tok string, client int64) []map[string]any {
	t.Helper()
	events, _ := e.auditLog(t, tok, client, "")
	return events
}

// TestAuditLogDisableAndFilters: turning 2FA off is recorded; filters by action, actor and
// time; paging; bad queries list every problem.
func TestAuditLogDisableAndFilters(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "fil@example.com")
	client := e.client(t, owner, "Acme")
	_, recovery := e.enable2FA(t, owner)
	must(t, e.Do("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{"code": recovery[5]}, bearer(owner)), 200, "disable")
	if ev, _ := e.auditLog(t, owner, client, "action=auth.2fa_disabled"); len(ev) != 1 || ev[0]["details"].(map[string]any)["confirmedWith"] != "recovery_code" {
		t.Errorf("2FA disabled events %v", ev)
	}
	admin := e.member(t, owner, client, "adm@example.com", "admin")
	adminID := must(t, e.Do("GET", "/v1/auth/me", nil, bearer(admin)), 200, "me").Map(t)["id"]
	for range 3 {
		e.app(t, admin, client, "App")
	}
	byAdmin, total := e.auditLog(t, owner, client, fmt.Sprintf("actorId=%v", adminID))
	if total != len(byAdmin) || total < 4 { // 3 apps, joined
		t.Errorf("%d events by the admin: %v", total, byAdmin)
	}
	for _, ev := range byAdmin {
		if fmt.Sprint(ev["actorId"]) != fmt.Sprint(adminID) {
			t.Errorf("actor filter let through %v", ev)
		}
	}
	apps, total := e.auditLog(t, owner, client, "action=app.created")
	if total != 3 || len(apps) != 3 {
		t.Errorf("%d app.created events", total)
	}
	// Paging: newest first, two per page.
	var page struct {
		Pagination struct{ TotalCount, Page, Limit int }
		Data       []map[string]any
	}
	must(t, e.Do("GET", fmt.Sprintf("/v1/auditLogs?clientId=%d&action=app.created&limit=2&page=2", client), nil, bearer(owner)), 200, "page 2").JSON(t, &page)
	if page.Pagination.TotalCount != 3 || page.Pagination.Page != 2 || len(page.Data) != 1 || page.Data[0]["id"] != apps[2]["id"] {
		t.Errorf("page 2: %+v", page)
	}
	// Time range: [from, to).
	future := url.QueryEscape(time.Now().Add(time.Hour).Format(time.RFC3339))
	if ev, total := e.auditLog(t, owner, client, "from="+future); total != 0 || len(ev) != 0 {
		t.Errorf("events in the future: %v", ev)
	}
	past := url.QueryEscape(time.Now().Add(-time.Hour).Format(time.RFC3339))
	if _, total := e.auditLog(t, owner, client, "from="+past+"&to="+future); total == 0 {
		t.Error("nothing in the last hour")
	}
	// clientId may be omitted with one client.
	must(t, e.Do("GET", "/v1/auditLogs", nil, bearer(admin)), 200, "default client")

	res := must(t, e.Do("GET", "/v1/auditLogs?clientId=x&page=0&limit=101&action=nope&actorId=-1&from=yesterday&to=2020-01-01T00:00:00Z", nil, bearer(owner)), 400, "bad query")
	want := []string{"page must not be less than 1", "limit must not be greater than 100", "clientId must be a positive integer",
		"action must be one of " + strings.Join(auditActions(t, e), ", "), "actorId must be a positive integer",
		"from must be a time in RFC 3339 form, such as 2026-01-31T09:00:00Z"}
	if got := errMessages(t, res); !slices.Equal(got, want) {
		t.Errorf("bad query:\n got %q\nwant %q", got, want)
	}
	res = must(t, e.Do("GET", "/v1/auditLogs?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", nil, bearer(owner)), 400, "reversed range")
	if got := errMessages(t, res); !slices.Equal(got, []string{"from must be before to"}) {
		t.Errorf("reversed range: %q", got)
	}
}

// auditActions reads the action names from the OpenAPI document.
func auditActions(t *testing.T, e *env) []string {
	t.Helper()
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Enum []string
				}
			}
		}
	}
	must(t, e.Do("GET", "/v1/openapi.json", nil, nil), 200, "openapi").JSON(t, &doc)
	return doc.Components.Schemas["AuditLogEntry"].Properties["action"].Enum
}

// TestAuditLogAccess: owners and admins read their client's log; developers and viewers
// are refused; another client's owner finds nothing of it, and their own log shows none of
// the first client's events.
func TestAuditLogAccess(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "acc@example.com")
	client := e.client(t, owner, "Acme")
	app := e.app(t, owner, client, "Secretive")
	must(t, e.Do("GET", fmt.Sprintf("/v1/apps/%v/secret", app["id"]), nil, bearer(owner)), 200, "secret")
	admin := e.member(t, owner, client, "acc-admin@example.com", "admin")
	dev := e.member(t, owner, client, "acc-dev@example.com", "developer")
	viewer := e.member(t, owner, client, "acc-view@example.com", "viewer")
	path := fmt.Sprintf("/v1/auditLogs?clientId=%d", client)

	if ev, _ := e.auditLog(t, admin, client, ""); find(ev, "app.secret_revealed", nil) == nil {
		t.Errorf("admin does not see the reveal: %v", ev)
	}
	for who, tok := range map[string]string{"developer": dev, "viewer": viewer} {
		res := must(t, e.Do("GET", path, nil, bearer(tok)), 403, who)
		if !strings.Contains(string(res.Body), "this needs the admin role") {
			t.Errorf("%s: %s", who, res.Body)
		}
	}
	if res := e.Do("GET", path, nil, nil); res.Status != 401 {
		t.Errorf("no credentials: %d", res.Status)
	}
	// A CLI token of a developer is refused too; of the owner, it reads.
	devCLI := must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/cli-token", client), map[string]string{"name": "dev"}, bearer(dev)), 201, "dev cli").Map(t)["token"].(string)
	must(t, e.Do("GET", "/v1/auditLogs", nil, bearer(devCLI)), 403, "developer's CLI token")
	ownerCLI := must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/cli-token", client), map[string]string{"name": "own"}, bearer(owner)), 201, "owner cli").Map(t)["token"].(string)
	must(t, e.Do("GET", "/v1/auditLogs", nil, bearer(ownerCLI)), 200, "owner's CLI token")

	// Another client's owner.
	stranger := e.user(t, "acc-stranger@example.com")
	theirs := e.client(t, stranger, "Other")
	if res := e.Do("GET", path, nil, bearer(stranger)); res.Status != 404 {
		t.Errorf("another client's log: %d %s", res.Status, res.Body)
	}
	own, _ := e.auditLog(t, stranger, theirs, "")
	for _, ev := range own {
		if int64(ev["clientId"].(float64)) != theirs || strings.Contains(fmt.Sprint(ev), "acc@example.com") || strings.Contains(fmt.Sprint(ev), "Secretive") {
			t.Errorf("the stranger's log shows another client's event: %v", ev)
		}
	}
	// The owner's CLI token cannot name another client either.
	if res := e.Do("GET", fmt.Sprintf("/v1/auditLogs?clientId=%d", theirs), nil, bearer(ownerCLI)); res.Status != 404 {
		t.Errorf("CLI token on another client: %d", res.Status)
	}
}

// TestAuditLogRetention: the prune deletes events older than the retention and keeps the
// rest.
func TestAuditLogRetention(t *testing.T) {
	e := newEnv(t)
	owner := e.user(t, "ret@example.com")
	client := e.client(t, owner, "Acme")
	e.app(t, owner, client, "One")
	e.app(t, owner, client, "Two")
	e.exec(t, "UPDATE audit_events SET created_at = now() - interval '400 days' WHERE target_label = 'One'")
	if e.Cfg.Console.AuditRetention != 365*24*time.Hour {
		t.Errorf("default retention %v", e.Cfg.Console.AuditRetention)
	}
	n, err := e.Stack.Audit.Prune(t.Context(), time.Now().Add(-e.Cfg.Console.AuditRetention))
	if err != nil || n != 1 {
		t.Fatalf("pruned %d (%v)", n, err)
	}
	ev, _ := e.auditLog(t, owner, client, "action=app.created")
	if len(ev) != 1 || ev[0]["targetLabel"] != "Two" {
		t.Errorf("after pruning: %v", ev)
	}
}
