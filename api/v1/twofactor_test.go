package v1_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

func code(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCode(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// enable2FA sets up and enables TOTP, returning the secret and the recovery codes.
func (e *env) enable2FA(t *testing.T, tok string) (string, []string) {
	t.Helper()
	setup := must(t, e.Do("GET", "/v1/ee/auth/2fa", nil, bearer(tok)), 200, "2fa setup").Map(t)
	secret := setup["secret"].(string)
	if !strings.HasPrefix(setup["otpauthUri"].(string), "otpauth://totp/Herald:") {
		t.Errorf("otpauth URI %v", setup["otpauthUri"])
	}
	pngData, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(setup["qrCode"].(string), "data:image/png;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(pngData)); err != nil {
		t.Errorf("QR code is not a PNG: %v", err)
	}
	wrong := "000000"
	if code(t, secret, time.Now()) == wrong {
		wrong = "000001"
	}
	res := must(t, e.Do("PATCH", "/v1/ee/auth/2fa/enable", map[string]string{"code": wrong}, bearer(tok)), 400, "wrong code")
	if got := errMessages(t, res); !slices.Equal(got, []string{"code is not valid"}) {
		t.Errorf("%q", got)
	}
	out := must(t, e.Do("PATCH", "/v1/ee/auth/2fa/enable", map[string]string{"code": code(t, secret, time.Now())}, bearer(tok)), 200, "enable").Map(t)
	var codes []string
	for _, c := range out["recoveryCodes"].([]any) {
		codes = append(codes, c.(string))
	}
	if len(codes) != 10 {
		t.Fatalf("%d recovery codes", len(codes))
	}
	return secret, codes
}

func TestTwoFactorSignInReplayAndRecovery(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "kim@example.com")

	// The QR code is also served as an image.
	res := must(t, e.Do("GET", "/v1/ee/auth/2fa", nil, withHeader(bearer(tok), "Accept", "image/png")), 200, "QR PNG")
	if res.Header.Get("Content-Type") != "image/png" {
		t.Errorf("content type %q", res.Header.Get("Content-Type"))
	}
	secret, recovery := e.enable2FA(t, tok)
	var n int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM console_recovery_codes WHERE code_hash = $1", []byte(recovery[0])).Scan(&n); err != nil || n != 0 {
		t.Errorf("recovery codes stored in clear (%d, %v)", n, err)
	}

	in := e.signIn(t, "kim@example.com")
	if in["twoFactorRequired"] != true || in["accessToken"] != nil || in["redirect"] != "/apps" {
		t.Fatalf("sign-in with 2FA answered %v", in)
	}
	challenge := in["challengeToken"].(string)
	if res := e.Do("GET", "/v1/auth/me", nil, bearer(challenge)); res.Status != 401 {
		t.Errorf("challenge token used as an access token: %d", res.Status)
	}
	if res := e.Do("POST", "/v1/ee/auth/2fa/validate", map[string]string{"code": "123"}, nil); res.Status != 401 {
		t.Errorf("validate without the challenge: %d", res.Status)
	}

	next := code(t, secret, time.Now().Add(30*time.Second))
	ok := must(t, e.Do("POST", "/v1/ee/auth/2fa/validate", map[string]string{"code": next}, bearer(challenge)), 200, "second factor").Map(t)
	if ok["accessToken"] == nil || ok["redirect"] != "/apps" {
		t.Fatalf("validate answered %v", ok)
	}
	must(t, e.Do("GET", "/v1/auth/me", nil, bearer(ok["accessToken"].(string))), 200, "session after 2FA")

	// The same code is never accepted twice, nor an older one.
	challenge = e.signIn(t, "kim@example.com")["challengeToken"].(string)
	for _, c := range []string{next, code(t, secret, time.Now())} {
		if res := e.Do("POST", "/v1/ee/auth/2fa/validate", map[string]string{"code": c}, bearer(challenge)); res.Status != 401 {
			t.Errorf("replayed code: %d %s", res.Status, res.Body)
		}
	}

	// Recovery: each code works once.
	rec := must(t, e.Do("POST", "/v1/ee/auth/2fa/recovery", map[string]string{"recoveryCode": strings.ToUpper(recovery[3])}, bearer(challenge)), 200, "recovery").Map(t)
	if rec["accessToken"] == nil {
		t.Fatalf("recovery answered %v", rec)
	}
	challenge = e.signIn(t, "kim@example.com")["challengeToken"].(string)
	if res := e.Do("POST", "/v1/ee/auth/2fa/recovery", map[string]string{"recoveryCode": recovery[3]}, bearer(challenge)); res.Status != 401 {
		t.Errorf("recovery code reused: %d", res.Status)
	}
	must(t, e.Do("POST", "/v1/ee/auth/2fa/recovery", map[string]string{"recoveryCode": recovery[4]}, bearer(challenge)), 200, "another recovery code")

	// New codes (confirmed with an unused recovery code) replace the old ones.
	fresh := must(t, e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, withHeader(bearer(tok), "X-Two-Factor-Code", recovery[6])), 200, "regenerate").Map(t)["recoveryCodes"].([]any)
	challenge = e.signIn(t, "kim@example.com")["challengeToken"].(string)
	if res := e.Do("POST", "/v1/ee/auth/2fa/recovery", map[string]string{"recoveryCode": recovery[5]}, bearer(challenge)); res.Status != 401 {
		t.Errorf("old recovery code after regeneration: %d", res.Status)
	}
	must(t, e.Do("POST", "/v1/ee/auth/2fa/recovery", map[string]string{"recoveryCode": fresh[0].(string)}, bearer(challenge)), 200, "new recovery code")

	// Guessing codes is throttled like passwords.
	challenge = e.signIn(t, "kim@example.com")["challengeToken"].(string)
	for range 5 {
		e.Do("POST", "/v1/ee/auth/2fa/validate", map[string]string{"code": "000001"}, bearer(challenge))
	}
	if res := e.Do("POST", "/v1/ee/auth/2fa/validate", map[string]string{"code": "000001"}, bearer(challenge)); res.Status != 429 {
		t.Errorf("code guessing: %d", res.Status)
	}
}

func TestTwoFactorDisable(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "lee@example.com")
	if res := e.Do("PATCH", "/v1/ee/auth/2fa/enable", map[string]string{"code": "123456"}, bearer(tok)); res.Status != 400 {
		t.Errorf("enable without setup: %d", res.Status)
	}
	secret, _ := e.enable2FA(t, tok)
	if res := e.Do("GET", "/v1/ee/auth/2fa", nil, bearer(tok)); res.Status != 409 {
		t.Errorf("setup while enabled: %d", res.Status)
	}
	if res := e.Do("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{}, bearer(tok)); res.Status != 400 {
		t.Errorf("disable without a code: %d", res.Status)
	}
	must(t, e.Do("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{"code": code(t, secret, time.Now().Add(30*time.Second))}, bearer(tok)), 200, "disable")
	if in := e.signIn(t, "lee@example.com"); in["accessToken"] == nil {
		t.Errorf("sign-in after disabling 2FA: %v", in)
	}
	if res := e.Do("GET", "/v1/ee/auth/2fa", nil, nil); res.Status != 401 {
		t.Errorf("2FA setup without a session: %d", res.Status)
	}
}

// TestRecoveryCodesNeedASecondFactor: without a code the route only reads how many codes
// are left; a new set needs a current TOTP code or an unused recovery code (query or
// header), wrong codes change nothing and are throttled, and the account is emailed when
// codes are replaced or 2FA is turned off.
func TestRecoveryCodesNeedASecondFactor(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "rex@example.com")
	if res := e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, bearer(tok)); res.Status != 409 {
		t.Errorf("without 2FA: %d %s", res.Status, res.Body)
	}
	secret, recovery := e.enable2FA(t, tok)
	mailsBefore := e.Mail.Count("rex@example.com")

	// Reading changes nothing and shows no code.
	read := must(t, e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, bearer(tok)), 200, "read").Map(t)
	if read["remaining"] != float64(10) || read["total"] != float64(10) || read["recoveryCodes"] != nil {
		t.Errorf("read answered %v", read)
	}
	// A session alone cannot replace the codes: wrong, empty-looking and used codes are 400.
	wrong := "000000"
	if code(t, secret, time.Now()) == wrong {
		wrong = "000001"
	}
	for _, bad := range []string{wrong, "abcdef-ghjkmn", "12345"} {
		res := must(t, e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+urlQuery(bad), nil, bearer(tok)), 400, "wrong code "+bad)
		if got := errMessages(t, res); !slices.Equal(got, []string{"code is not valid"}) {
			t.Errorf("%s: %q", bad, got)
		}
	}
	if n := e.Mail.Count("rex@example.com"); n != mailsBefore {
		t.Errorf("refused attempts sent %d emails", n-mailsBefore)
	}
	// A TOTP code in the query issues a new set; the old codes stop working.
	fresh := must(t, e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+code(t, secret, time.Now().Add(30*time.Second)), nil, bearer(tok)), 200, "regenerate with TOTP").Map(t)
	codes := fresh["recoveryCodes"].([]any)
	if len(codes) != 10 || fresh["remaining"] != float64(10) {
		t.Fatalf("regeneration answered %v", fresh)
	}
	mail := e.Mail.Last(t, "rex@example.com")
	if !strings.Contains(mail.Subject(), "New recovery codes") || strings.Contains(mail.Body(), codes[0].(string)) {
		t.Errorf("notification %q: %s", mail.Subject(), mail.Body())
	}
	challenge := e.signIn(t, "rex@example.com")["challengeToken"].(string)
	if res := e.Do("POST", "/v1/ee/auth/2fa/recovery", map[string]string{"recoveryCode": recovery[0]}, bearer(challenge)); res.Status != 401 {
		t.Errorf("an old code after regeneration: %d", res.Status)
	}
	// The TOTP code just used is not accepted again; an unused recovery code in the header
	// is, and is used up by it.
	if res := e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+code(t, secret, time.Now().Add(30*time.Second)), nil, bearer(tok)); res.Status != 400 {
		t.Errorf("TOTP code replayed: %d", res.Status)
	}
	again := must(t, e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, withHeader(bearer(tok), "X-Two-Factor-Code", codes[1].(string))), 200, "regenerate with a recovery code").Map(t)
	if res := e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, withHeader(bearer(tok), "X-Two-Factor-Code", codes[1].(string))); res.Status != 400 {
		t.Errorf("the same recovery code twice: %d", res.Status)
	}
	if left := must(t, e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, bearer(tok)), 200, "read").Map(t)["remaining"]; left != float64(10) {
		t.Errorf("%v codes left after a fresh set", left)
	}

	// A CLI token and no credentials are refused.
	client := e.client(t, tok, "Rex")
	cli := must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/cli-token", client), map[string]string{"name": "ci"}, bearer(tok)), 201, "cli token").Map(t)["token"].(string)
	if res := e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+urlQuery(again["recoveryCodes"].([]any)[0].(string)), nil, bearer(cli)); res.Status != 403 {
		t.Errorf("CLI token: %d", res.Status)
	}
	if res := e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes", nil, nil); res.Status != 401 {
		t.Errorf("no credentials: %d", res.Status)
	}

	// Guessing is throttled: after 5 wrong codes even a right one is 429.
	for range 5 {
		e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+wrong, nil, bearer(tok))
	}
	right := again["recoveryCodes"].([]any)[2].(string)
	if res := e.Do("GET", "/v1/ee/auth/2fa/recoveryCodes?code="+urlQuery(right), nil, bearer(tok)); res.Status != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("after 5 wrong codes: %d %s", res.Status, res.Body)
	}
	if res := e.Do("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{"code": right}, bearer(tok)); res.Status != 429 {
		t.Errorf("disable while locked: %d", res.Status)
	}
}

// TestDisablingTwoFactorIsNotified: turning 2FA off (here with a recovery code) emails the
// account.
func TestDisablingTwoFactorIsNotified(t *testing.T) {
	e := newEnv(t)
	tok := e.user(t, "sal@example.com")
	_, recovery := e.enable2FA(t, tok)
	must(t, e.Do("PATCH", "/v1/ee/auth/2fa/disable", map[string]string{"code": recovery[0]}, bearer(tok)), 200, "disable with a recovery code")
	mail := e.Mail.Last(t, "sal@example.com")
	if !strings.Contains(mail.Subject(), "Two-factor authentication was turned off") || !strings.Contains(mail.Body(), "Request from: ") {
		t.Errorf("notification %q: %s", mail.Subject(), mail.Body())
	}
}
