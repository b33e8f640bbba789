package unsubscribe

import (
	"context"
	"testing"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// TestServiceStaysInTheTokensApp: even a token signed with the right key (as if a bug
// issued it) cannot reach a user or a category of another app, an invalid token changes
// nothing, and a valid one is idempotent and touches only its own switch.
func TestServiceStaysInTheTokensApp(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	one := func(q string, args ...any) int64 {
		t.Helper()
		var id int64
		if err := d.Pool.QueryRow(ctx, q, args...).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	app := func(name string) int64 {
		return one(`INSERT INTO apps (name, api_key, api_secret_hash, api_secret_sealed) VALUES ($1, $1, '\x00', '\x00') RETURNING id`, name)
	}
	a, b := app("a"), app("b")
	userA := one(`INSERT INTO users (app_id, identifier) VALUES ($1, 'alice') RETURNING id`, a)
	userB := one(`INSERT INTO users (app_id, identifier) VALUES ($1, 'bob') RETURNING id`, b)
	catA := one(`INSERT INTO categories (app_id, identifier, name) VALUES ($1, 'billing', 'Billing') RETURNING id`, a)
	catB := one(`INSERT INTO categories (app_id, identifier, name) VALUES ($1, 'billing', 'Billing') RETURNING id`, b)
	one(`INSERT INTO categories (app_id, identifier, name) VALUES ($1, 'news', 'News') RETURNING id`, a)

	now := time.Unix(1_800_000_000, 0)
	s := &Service{DB: d, Signer: NewSigner(testKey), Now: func() time.Time { return now }}
	tok := func(app, user, cat int64) string {
		return s.Signer.Sign(Claims{App: app, User: user, Kind: KindCategory, Scope: cat, Expires: now.Add(time.Hour)})
	}
	count := func() int64 { return one(`SELECT count(*) FROM preferences`) }

	for name, token := range map[string]string{
		"another app's user":     tok(a, userB, catA),
		"another app's category": tok(a, userA, catB),
		"app b, app a's user":    tok(b, userA, catB),
		"expired":                s.Signer.Sign(Claims{App: a, User: userA, Kind: KindCategory, Scope: catA, Expires: now}),
		"garbage":                "x",
	} {
		if err := s.Unsubscribe(ctx, token); herald.ErrorCode(err) != herald.ENOTFOUND {
			t.Errorf("%s: %v, want not found", name, err)
		}
		if _, err := s.Describe(ctx, token); herald.ErrorCode(err) != herald.ENOTFOUND {
			t.Errorf("%s: Describe %v, want not found", name, err)
		}
	}
	if n := count(); n != 0 {
		t.Fatalf("refused tokens wrote %d preferences", n)
	}

	good := tok(a, userA, catA)
	if got, err := s.Describe(ctx, good); err != nil || got != (Target{AppName: "a", User: "alice", CategoryName: "Billing"}) {
		t.Errorf("Describe = %+v, %v", got, err)
	}
	for range 2 {
		if err := s.Unsubscribe(ctx, good); err != nil {
			t.Fatal(err)
		}
	}
	var channel string
	var enabled bool
	var cat int64
	if err := d.Pool.QueryRow(ctx, `SELECT category_id, channel, enabled FROM preferences WHERE app_id = $1 AND user_id = $2`, a, userA).Scan(&cat, &channel, &enabled); err != nil {
		t.Fatal(err)
	}
	if cat != catA || channel != "email" || enabled || count() != 1 {
		t.Errorf("preference %d/%s/%v (%d rows), want billing/email/off only", cat, channel, enabled, count())
	}
}
