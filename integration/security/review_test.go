package security

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// The scenarios of the outside review of the console API (issue 23). Invalid UTF-8 is
// TestInvalidUTF8IsRefusedOnEveryRoute (utf8_test.go).

// TestStolenSessionCannotTakeOverTheSecondFactor: with an access token and the password
// (a stolen session), an attacker can neither replace the recovery codes nor turn 2FA off:
// without a code the route only reads, the password is no code, and guessing locks after
// the sign-in limit. The account's 2FA state and codes are unchanged afterwards.
func TestStolenSessionCannotTakeOverTheSecondFactor(t *testing.T) {
	w := newWorld(t)
	e := w.e
	kim := w.console.User("kim@a.example", password)
	h := stacktest.Bearer(kim.AccessToken)
	setup := e.Must(e.Do("GET", "/v1/ee/auth/2fa", nil, h), 200, "2fa setup").Map(t)
	secret := setup["secret"].(string)
	now, _ := totp.GenerateCode(secret, time.Now())
	e.Must(e.Do("PATCH", "/v1/ee/auth/2fa/enable", map[string]string{"code": now}, h), 200, "enable 2fa")
	state := func() string {
		var s string
		if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT u.totp_enabled::text || ':' || string_agg(encode(c.code_hash, 'hex') || coalesce(c.used_at::text, ''), ',' ORDER BY c.id)
			FROM console_users u JOIN console_recovery_codes c ON c.console_user_id = u.id WHERE lower(u.email) = 'kim@a.example' GROUP BY u.totp_enabled`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := state()
	// Codes that are wrong for sure: none of the steps the server accepts now.
	var wrong []string
	for c := 0; len(wrong) < 2; c++ {
		cand, ok := fmt.Sprintf("%06d", c), true
		for _, d := range []time.Duration{-60 * time.Second, -30 * time.Second, 0, 30 * time.Second, 60 * time.Second} {
			if valid, _ := totp.GenerateCode(secret, time.Now().Add(d)); valid == cand {
				ok = false
			}
		}
		if ok {
			wrong = append(wrong, cand)
		}
	}
	attempts := 0
	try := func(method, path string, body any, hh stacktest.Headers, want int) {
		t.Helper()
		attempts++
		if res := e.Do(method, path, body, hh); res.Status != want {
			t.Errorf("%s %s: %d %s, want %d", method, path, res.Status, res.Body, want)
		}
	}
	try("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, h, 200)
	try("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+password, nil, h, 400)
	try("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, map[string]string{"Authorization": h["Authorization"], "X-Two-Factor-Code": wrong[0]}, 400)
	try("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{}, h, 400)
	try("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{"code": password}, h, 400)
	try("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{"code": "123-456"}, h, 400)
	try("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+wrong[1], nil, h, 400)
	// Five wrong codes (the empty body was refused before any code was checked) lock both
	// routes, even for a right code.
	next, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	try("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+next, nil, h, 429)
	try("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{"code": next}, h, 429)
	if after := state(); after != before {
		t.Errorf("2FA state changed:\n%s\n%s", before, after)
	}
	if n := w.console.Mail.Count("kim@a.example"); n != 1 { // the verification email only
		t.Errorf("%d emails to kim", n)
	}
	t.Logf("stolen session: %d attempts to replace recovery codes or disable 2FA without a valid code, all refused (400, then 429); 2FA and codes unchanged", attempts)
}

// TestSignUpAnswersTheSameForTakenAddresses: a sign-up with a tenant owner's address and
// one with a fresh address get byte-identical answers (but for the echoed address) and
// the same sign-in answer for the chosen password; the owner's account is untouched.
func TestSignUpAnswersTheSameForTakenAddresses(t *testing.T) {
	w := newWorld(t)
	e, a := w.e, w.a
	snap := newSnapshotter(t, e, w.stripe.rows)
	before := snap.take(t)
	signUp := func(email string) (int, string, string) {
		res := e.Do("POST", "/v1/auth/signup?redirect=/welcome", map[string]string{"email": email, "password": "chosen by someone", "name": "Eve"}, nil)
		in := e.Do("POST", "/v1/auth?redirect=/apps", map[string]string{"email": email, "password": "chosen by someone"}, nil)
		return res.Status, strings.Replace(string(res.Body), email, "<email>", 1), fmt.Sprint(in.Status, " ", string(in.Body))
	}
	takenStatus, taken, takenIn := signUp(a.login.Email)
	freshStatus, fresh, freshIn := signUp("fresh@elsewhere.example")
	if takenStatus != 201 || freshStatus != 201 || taken != fresh || takenIn != freshIn {
		t.Errorf("taken: %d %s / %s\nfresh: %d %s / %s", takenStatus, taken, takenIn, freshStatus, fresh, freshIn)
	}
	for _, c := range before.diff(snap.take(t)) {
		if c.table == "console_users" && c.before != "" {
			t.Errorf("an existing account changed: %s", c)
		}
	}
	if !strings.Contains(w.console.Mail.Last(t, a.login.Email).Subject(), "Someone tried to sign up") {
		t.Error("the owner of the taken address was not told")
	}
	t.Logf("sign-up with a taken and a fresh address: both %d, identical bodies %s; sign-in with the chosen password: %s", takenStatus, taken, takenIn)
}

// TestUploadsAreStoredUnderTheDetectedExtension: a GIF header followed by HTML named
// x.html is stored as an image named …-x.gif.
func TestUploadsAreStoredUnderTheDetectedExtension(t *testing.T) {
	w := newWorld(t)
	polyglot := append([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00"), []byte("<html><script>alert(1)</script></html>")...)
	name := w.upload(t, w.a.login.AccessToken, "uploads", "x.html", polyglot)
	if !strings.HasSuffix(name, "-x.gif") {
		t.Errorf("stored as %q", name)
	}
	res := w.e.Must(w.e.Do("GET", "/v1/files/uploads/"+name, nil, nil), 200, "served")
	if res.Header.Get("Content-Type") != "image/gif" || !bytes.Equal(res.Body, polyglot) {
		t.Errorf("served as %q", res.Header.Get("Content-Type"))
	}
	t.Logf("x.html (GIF header + HTML) stored as %s, served as image/gif", name)
}

// TestAuditLogStaysInItsClient: the world's setup (secret reveals, a signing key shown, an
// invitation, a CLI token) is in each tenant's own log; another tenant's owner, a
// developer and a viewer cannot read it, and nothing of B shows in A's log.
func TestAuditLogStaysInItsClient(t *testing.T) {
	w := newWorld(t)
	e, a, b := w.e, w.a, w.b
	var page struct {
		Pagination struct{ TotalCount int }
		Data       []map[string]any
	}
	e.Must(e.Do("GET", fmt.Sprintf("/v1/auditLogs?clientId=%d&limit=100", a.client), nil, stacktest.Bearer(a.login.AccessToken)), 200, "A's log").JSON(t, &page)
	seen := map[string]bool{}
	for _, ev := range page.Data {
		seen[ev["action"].(string)] = true
		if int64(ev["clientId"].(float64)) != a.client || strings.Contains(fmt.Sprint(ev), b.marker) || strings.Contains(fmt.Sprint(ev), strings.ToLower(b.marker)) {
			t.Errorf("A's log shows %v", ev)
		}
	}
	for _, action := range []string{"app.created", "app.secret_revealed", "app.rsa_key_generated", "invitation.created", "cli_token.created"} {
		if !seen[action] {
			t.Errorf("A's log has no %s: %v", action, page.Data)
		}
	}
	for who, tok := range map[string]string{"B's owner": b.login.AccessToken, "B's CLI token": b.cliToken} {
		if res := e.Do("GET", fmt.Sprintf("/v1/auditLogs?clientId=%d", a.client), nil, stacktest.Bearer(tok)); res.Status != 404 {
			t.Errorf("%s reads A's log: %d", who, res.Status)
		}
	}
	roles := map[string]int{}
	for _, role := range []string{"developer", "viewer", "admin"} {
		m := w.console.User(role+"@a-members.example", password)
		e.Must(e.Do("POST", fmt.Sprintf("/v1/clients/%d/invite-users?role=%s", a.client, role), []string{m.Email}, stacktest.Bearer(a.login.AccessToken)), 200, "invite "+role)
		code := w.console.Mail.Last(t, m.Email).Find(t, `/invitations/([A-Za-z0-9_-]+)`)
		e.Must(e.Do("GET", "/v1/invitations/"+code+"/accept", nil, stacktest.Bearer(m.AccessToken)), 200, "accept "+role)
		roles[role] = e.Do("GET", "/v1/auditLogs", nil, stacktest.Bearer(m.AccessToken)).Status
	}
	if roles["developer"] != 403 || roles["viewer"] != 403 || roles["admin"] != 200 {
		t.Errorf("reads by role: %v", roles)
	}
	t.Logf("A's log: %d events of %d actions, none of B; B's owner and CLI token 404; reads by role %v", page.Pagination.TotalCount, len(seen), roles)
}
