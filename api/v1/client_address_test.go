package v1_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
)

// auditIP is the address of the newest event of action about email.
func (e *env) auditIP(t *testing.T, action, email string) string {
	t.Helper()
	var ip string
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), `SELECT ip FROM audit_events WHERE action = $1 AND target_label = $2 ORDER BY id DESC LIMIT 1`, action, email).Scan(&ip); err != nil {
		t.Fatalf("%s for %s: %v", action, email, err)
	}
	return ip
}

// TestClientAddressBehindTrustedProxies: with HERALD_TRUSTED_PROXIES naming the proxy in
// front (here the test's own 127.0.0.1), the client is the rightmost X-Forwarded-For hop
// that is not a trusted proxy. A client that forges hops to the left of it changes neither
// its per-address budget, nor the address given to the captcha provider, nor the audit
// log's; a different real client has its own budget.
func TestClientAddressBehindTrustedProxies(t *testing.T) {
	var mu sync.Mutex
	var remoteIPs []string
	verify := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		mu.Lock()
		remoteIPs = append(remoteIPs, r.PostForm.Get("remoteip"))
		mu.Unlock()
		w.Write([]byte(`{"success":true}`))
	}))
	defer verify.Close()
	e := newEnv(t, func(c *config.Config) {
		c.TrustedProxies = []string{"127.0.0.1", "10.0.0.0/8"}
		c.Console.SignUpLimitPerIP = 2
		c.Console.CaptchaSecret, c.Console.CaptchaVerifyURL = "capsecret", verify.URL
	})
	signUp := func(i int, xff string, status int) {
		t.Helper()
		must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": fmt.Sprintf("p%d@example.com", i), "password": password, "captchaToken": "ok"},
			withHeader(nil, "X-Forwarded-For", xff)), status, "sign-up with X-Forwarded-For "+xff)
	}
	// The client 203.0.113.7 forges a different leftmost hop each time; the proxy appends
	// the address it saw, and an inner proxy (10.0.0.5) its own.
	signUp(1, "6.6.6.1, 203.0.113.7", 201)
	signUp(2, "6.6.6.2, 203.0.113.7, 10.0.0.5", 201)
	signUp(3, "6.6.6.3, 1.2.3.4, 203.0.113.7", 429)
	signUp(4, "203.0.113.8", 201)
	mu.Lock()
	if fmt.Sprint(remoteIPs) != "[203.0.113.7 203.0.113.7 203.0.113.8]" {
		t.Errorf("captcha remoteip %v", remoteIPs)
	}
	mu.Unlock()

	must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "p1@example.com", "password": "not the password"},
		withHeader(nil, "X-Forwarded-For", "6.6.6.6, 203.0.113.9")), 401, "wrong password through the proxy")
	if ip := e.auditIP(t, "auth.signin_failed", "p1@example.com"); ip != "203.0.113.9" {
		t.Errorf("audit ip %q, want the rightmost untrusted hop", ip)
	}
}

// TestForwardedForIsIgnoredWithoutTrustedProxies: without HERALD_TRUSTED_PROXIES the
// client is the connection's peer; a forged X-Forwarded-For neither opens a new budget nor
// reaches the audit log.
func TestForwardedForIsIgnoredWithoutTrustedProxies(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Console.SignUpLimitPerIP = 1 })
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "q1@example.com", "password": password},
		withHeader(nil, "X-Forwarded-For", "203.0.113.1")), 201, "sign-up")
	must(t, e.Do("POST", "/v1/auth/signup?redirect=/w", map[string]string{"email": "q2@example.com", "password": password},
		withHeader(nil, "X-Forwarded-For", "203.0.113.2")), 429, "sign-up with another forged address")
	must(t, e.Do("POST", "/v1/auth?redirect=/", map[string]string{"email": "q1@example.com", "password": "not the password"},
		withHeader(nil, "X-Forwarded-For", "203.0.113.3")), 401, "wrong password")
	if ip := e.auditIP(t, "auth.signin_failed", "q1@example.com"); ip != "127.0.0.1" {
		t.Errorf("audit ip %q, want the peer", ip)
	}
}
