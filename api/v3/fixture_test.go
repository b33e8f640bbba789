package v3_test

import (
	"context"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/audience/userjwt"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/testkit/inboxtest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// fixture is a stack with three apps: plain (user mode, plus a signing key for tokens),
// hmac (the deprecated signature turned on) and secure (bearer token required), and
// another plain app as the other tenant.
type fixture struct {
	t                          *testing.T
	e                          *stacktest.Env
	plain, hmac, secure, other apps.Credentials
	keys                       map[int64]*rsa.PrivateKey
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := stacktest.New(t, stacktest.Options{})
	f := &fixture{t: t, e: e, plain: e.App, hmac: e.NewApp("hmac"), secure: e.NewApp("secure"), other: e.NewApp("other"), keys: map[int64]*rsa.PrivateKey{}}
	ctx := context.Background()
	for _, app := range []apps.Credentials{f.plain, f.secure, f.other} {
		if _, _, err := e.Stack.Apps.GenerateRSAKey(ctx, app.AppID); err != nil {
			t.Fatal(err)
		}
		k, err := e.Stack.Apps.RSAPrivateKey(ctx, app.AppID)
		if err != nil {
			t.Fatal(err)
		}
		f.keys[app.AppID] = k
	}
	if err := e.Stack.Apps.SetHMACAuth(ctx, f.hmac.AppID, true); err != nil {
		t.Fatal(err)
	}
	if err := e.Stack.Apps.SetSecureAuth(ctx, f.secure.AppID, true); err != nil {
		t.Fatal(err)
	}
	return f
}

const prefix = "X-SERVICE-"

// appH are app credentials.
func appH(a apps.Credentials) stacktest.Headers {
	return stacktest.Headers{prefix + "API-KEY": a.APIKey, prefix + "API-SECRET": a.APISecret}
}

// userH are user-mode credentials.
func userH(a apps.Credentials, user string) stacktest.Headers {
	return stacktest.Headers{prefix + "API-KEY": a.APIKey, prefix + "USER-ID": user}
}

// signature is the deprecated HMAC user signature.
func signature(secret, user string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(user))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// sigH are user-mode credentials with the HMAC signature.
func sigH(a apps.Credentials, user string) stacktest.Headers {
	h := userH(a, user)
	h[prefix+"USER-SIGNATURE"] = signature(a.APISecret, user)
	return h
}

// token mints a user JWT of an app (its apiKey claim names the app).
func (f *fixture) token(a apps.Credentials, user string) string {
	f.t.Helper()
	tok, err := userjwt.Mint(f.keys[a.AppID], a.APIKey, user, time.Hour, time.Now())
	if err != nil {
		f.t.Fatal(err)
	}
	return tok
}

// bearerH is a bearer token alone.
func bearerH(tok string) stacktest.Headers {
	return stacktest.Headers{"Authorization": "Bearer " + tok}
}

// with adds headers to a copy of h.
func with(h stacktest.Headers, kv ...string) stacktest.Headers {
	out := stacktest.Headers{}
	for k, v := range h {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// seed gives an app's user n notifications; ids in creation order.
func (f *fixture) seed(a apps.Credentials, user string, n int) []int64 {
	f.t.Helper()
	return inboxtest.Seed(f.t, f.e.Stack.DB, a.AppID, user, n, nil)
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// wantStatus fails the test when the answer has another status.
func wantStatus(t *testing.T, res *stacktest.Response, status int, what string) bool {
	t.Helper()
	if res.Status != status {
		t.Errorf("%s: status %d, want %d: %s", what, res.Status, status, res.Body)
		return false
	}
	return true
}

// wantProblems checks a 400 listing exactly the given rules.
func wantProblems(t *testing.T, res *stacktest.Response, what string, rules ...string) {
	t.Helper()
	if !wantStatus(t, res, 400, what) {
		return
	}
	var out struct {
		Status  string
		Message []string
	}
	res.JSON(t, &out)
	if out.Status != "error" || !slices.Equal(out.Message, rules) {
		t.Errorf("%s: messages %q, want %q", what, out.Message, rules)
	}
}

// wantError checks an error answer whose message contains text.
func wantError(t *testing.T, res *stacktest.Response, status int, text, what string) {
	t.Helper()
	if !wantStatus(t, res, status, what) {
		return
	}
	var out struct{ Status, Message string }
	res.JSON(t, &out)
	if out.Status != "error" || !strings.Contains(out.Message, text) {
		t.Errorf("%s: message %q, want it to contain %q", what, out.Message, text)
	}
}
