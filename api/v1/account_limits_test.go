package v1_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
)

// retryAfter checks a 429 and returns its Retry-After in seconds.
func retryAfter(t *testing.T, res interface {
	Get(string) string
}, what string) int {
	t.Helper()
	secs, err := strconv.Atoi(res.Get("Retry-After"))
	if err != nil || secs < 1 {
		t.Errorf("%s: Retry-After %q", what, res.Get("Retry-After"))
	}
	return secs
}

// TestSignUpBurstIsThrottledPerAddress replays the review's burst: 30 sign-ups from one
// client address. With the default budget (HERALD_SIGNUP_LIMIT_PER_IP=10 per hour) the
// first 10 are created and the other 20 answer 429 with Retry-After, before the captcha
// provider is asked and before any password is hashed; a body that breaks the rules still
// gets its 400 (validation comes first), and another kind of request has its own budget.
func TestSignUpBurstIsThrottledPerAddress(t *testing.T) {
	var captchaCalls atomic.Int64
	verify := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		captchaCalls.Add(1)
		w.Write([]byte(`{"success":true}`))
	}))
	defer verify.Close()
	e := newEnv(t, func(c *config.Config) {
		d := config.Defaults()
		c.Console.SignUpLimitPerIP, c.Console.AccountLimitWindow = d.Console.SignUpLimitPerIP, d.Console.AccountLimitWindow
		c.Console.CaptchaSecret, c.Console.CaptchaVerifyURL = "capsecret", verify.URL
	})
	status := map[int]int{}
	for i := range 30 {
		res := e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": fmt.Sprintf("burst%d@example.com", i), "password": password, "captchaToken": "human"}, nil)
		status[res.Status]++
		if res.Status == 429 {
			retryAfter(t, res.Header, "sign-up 429")
		}
	}
	if status[201] != 10 || status[429] != 20 {
		t.Errorf("30 sign-ups: %v, want 10 × 201 and 20 × 429", status)
	}
	if n := captchaCalls.Load(); n != 10 {
		t.Errorf("the captcha provider was asked %d times, want 10 (refused sign-ups never reach it)", n)
	}
	var accounts int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), `SELECT count(*) FROM console_users WHERE email LIKE 'burst%'`).Scan(&accounts); err != nil || accounts != 10 {
		t.Errorf("%d accounts (%v)", accounts, err)
	}
	if got := errMessages(t, must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]any{"email": "x", "password": 1}, nil), 400, "bad body while throttled")); len(got) != 3 {
		t.Errorf("%q", got)
	}
	must(t, e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": "burst0@example.com"}, nil), 201, "a reset request has its own budget")
	t.Logf("30 sign-ups from one address: %v; captcha asked %d times", status, captchaCalls.Load())
}

// TestAccountRequestsAreThrottledPerAddressAndEmail: password-reset requests and
// invitations have budgets per client address, and sign-ups, resets and invitations per
// email address; over one the answer is 429 with Retry-After and nothing is sent.
func TestAccountRequestsAreThrottledPerAddressAndEmail(t *testing.T) {
	e := newEnv(t, func(c *config.Config) {
		c.Console.PasswordResetLimitPerIP, c.Console.InvitationLimitPerIP, c.Console.AccountLimitPerEmail = 3, 5, 2
	})
	owner := e.user(t, "limits@example.com")
	client := e.client(t, owner, "Acme")

	// Resets: 3 per address, whatever the email.
	for i := range 3 {
		must(t, e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": fmt.Sprintf("r%d@example.com", i)}, nil), 201, "reset request")
	}
	res := must(t, e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": "limits@example.com"}, nil), 429, "4th reset request from the address")
	retryAfter(t, res.Header, "reset 429")
	if got := errMessages(t, must(t, e.Do("POST", "/v1/auth/passwordResetRequests?redirect=/reset", map[string]string{"email": "nope"}, nil), 400, "bad reset body")); len(got) != 1 {
		t.Errorf("%q", got)
	}

	// Sign-ups: 2 per email address (the per-address budget is off here).
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "twice@example.com", "password": password}, nil), 201, "sign-up")
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "twice@example.com", "password": password}, nil), 201, "sign-up again")
	res = must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "TWICE@example.com", "password": password}, nil), 429, "third sign-up for the address")
	retryAfter(t, res.Header, "sign-up 429")

	// Invitations: 5 per address (one per invited address; the refused resend spent one), 2
	// per invited address.
	invite := func(status int, emails ...string) []map[string]any {
		res := must(t, e.Do("POST", fmt.Sprintf("/v1/clients/%d/invite-users?role=viewer", client), emails, bearer(owner)), status, fmt.Sprint("invite ", emails))
		if status != 200 {
			retryAfter(t, res.Header, "invitation 429")
			return nil
		}
		var out []map[string]any
		res.JSON(t, &out)
		return out
	}
	first := invite(200, "a@example.com", "b@example.com")
	must(t, e.Do("POST", fmt.Sprintf("/v1/invitations/%d/resend", int64(first[0]["id"].(float64))), nil, bearer(owner)), 200, "resend")
	must(t, e.Do("POST", fmt.Sprintf("/v1/invitations/%d/resend", int64(first[0]["id"].(float64))), nil, bearer(owner)), 429, "second resend to a@ (2 per invited address)")
	invite(200, "c@example.com")
	before := len(e.Mail.Messages())
	invite(429, "d@example.com", "e@example.com")
	if after := len(e.Mail.Messages()); after != before {
		t.Errorf("%d emails sent by a refused invitation", after-before)
	}
	var pending int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), `SELECT count(*) FROM invitations WHERE client_id = $1`, client).Scan(&pending); err != nil || pending != 3 {
		t.Errorf("%d invitations stored (%v), want 3", pending, err)
	}
}
