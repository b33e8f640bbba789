package security

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestUnsubscribeLinkAttacks attacks the public one-click unsubscribe route: tokens that
// are forged, tampered with, expired, of another purpose or naming another app's user are
// refused (404) without a write, GET never writes, the answers carry no tenant data but
// the token's own names, and one client address past its budget gets 429 with
// Retry-After.
func TestUnsubscribeLinkAttacks(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.UnsubscribeRateLimit = 0 }})
	ctx := context.Background()
	other := e.NewApp("other app")
	cat := func(app int64, ident string) int64 {
		c, err := e.Stack.Categories.Create(ctx, app, []byte(`{"identifier":"`+ident+`","name":"`+ident+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	user := func(app int64, ident string) int64 {
		var id int64
		if err := e.Stack.DB.Pool.QueryRow(ctx, `INSERT INTO users (app_id, identifier) VALUES ($1, $2) RETURNING id`, app, ident).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	a, b := e.App.AppID, other.AppID
	catA, catB := cat(a, "billing"), cat(b, "secret-category-of-b")
	alice, bob := user(a, "alice"), user(b, "bob-of-b")
	s := unsubscribe.NewSigner(e.Cfg.SecretKey)
	sign := func(app, user, cat int64, exp time.Time) string {
		return s.Sign(unsubscribe.Claims{App: app, User: user, Kind: unsubscribe.KindCategory, Scope: cat, Expires: exp})
	}
	later := time.Now().Add(time.Hour)
	good := sign(a, alice, catA, later)
	wrongKey := unsubscribe.NewSigner(secrets.Token(32)).Sign(unsubscribe.Claims{App: a, User: alice, Kind: unsubscribe.KindCategory, Scope: catA, Expires: later})
	rows := func() int {
		var n int
		if err := e.Stack.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM preferences`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	refused := 0
	for name, tok := range map[string]string{
		"signed with another key":        wrongKey,
		"expired":                        sign(a, alice, catA, time.Now().Add(-time.Second)),
		"another app's user":             sign(a, bob, catA, later),
		"another app's category":         sign(a, alice, catB, later),
		"the app's API key":              e.App.APIKey,
		"tampered (app id)":              good[:4] + string("AB"[boolIndex(good[4] == 'A')]) + good[5:],
		"a token of another kind (flow)": s.Sign(unsubscribe.Claims{App: a, User: alice, Kind: 'f', Scope: catA, Expires: later}),
		"path traversal":                 "..%2F..%2Fv1%2Fhealth",
		"oversized":                      strings.Repeat("A", 1000),
	} {
		for _, method := range []string{"GET", "POST"} {
			res, body := unsubscribeCall(t, e, method, tok)
			refused++
			if res.StatusCode != 404 || strings.Contains(body, "secret-category-of-b") || strings.Contains(body, "bob-of-b") {
				t.Errorf("%s, %s: %d %.300s", name, method, res.StatusCode, body)
			}
		}
	}
	if n := rows(); n != 0 {
		t.Fatalf("refused tokens wrote %d preferences", n)
	}
	// A browser gets a page instead of the error envelope, with the same status.
	req, _ := http.NewRequest("GET", e.BaseURL+unsubscribe.Path+wrongKey, nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(res.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("a browser with a bad link: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	if res, body := unsubscribeCall(t, e, "GET", good); res.StatusCode != 200 || rows() != 0 || strings.Contains(body, "bob-of-b") {
		t.Fatalf("GET with a good token: %d (%d rows) %s", res.StatusCode, rows(), body)
	}
	if res, _ := unsubscribeCall(t, e, "POST", good); res.StatusCode != 200 || rows() != 1 {
		t.Fatalf("POST with a good token: %d (%d rows)", res.StatusCode, rows())
	}

	// One client address past its budget: 429 with Retry-After, nothing written.
	limited := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.UnsubscribeRateLimit = 0.01 }})
	tok := unsubscribe.NewSigner(limited.Cfg.SecretKey).Sign(unsubscribe.Claims{App: limited.App.AppID, User: 1, Kind: unsubscribe.KindCategory, Scope: 1, Expires: later})
	if res, _ := unsubscribeCall(t, limited, "POST", tok); res.StatusCode != 404 {
		t.Fatalf("first call: %d", res.StatusCode)
	}
	res, _ := unsubscribeCall(t, limited, "POST", good)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("past the budget: %d Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	t.Logf("unsubscribe links: %d forged, tampered, expired, foreign or odd tokens refused (404, nothing written, no other tenant's names); GET wrote nothing; the good token wrote one switch; the second call of an address over a 0.01/s budget got 429 (Retry-After %s s)", refused, res.Header.Get("Retry-After"))
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// unsubscribeCall calls the link without credentials, as a mailbox provider does.
func unsubscribeCall(t *testing.T, e *stacktest.Env, method, token string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, e.BaseURL+unsubscribe.Path+token, strings.NewReader("List-Unsubscribe=One-Click"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}
