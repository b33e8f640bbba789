package integration

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestPreferencePageInChromium uses the hosted preference page in Debian's Chromium, by
// role and label, with the mouse and with the keyboard alone
// (web/console/test/browser/preference-page.spec.ts), then checks what Herald stored.
// HERALD_PREFS_SCREENSHOTS=<dir> saves the screenshots of docs/preferences.md.
func TestPreferencePageInChromium(t *testing.T) {
	chromium := browserTools(t, consoleDir)
	e := stacktest.New(t, stacktest.Options{})
	ctx := context.Background()
	app := e.NewApp("Acme Shop").AppID
	for _, body := range []string{
		`{"identifier":"billing","name":"Billing"}`,
		`{"identifier":"news","name":"News","channelDefaults":{"email":false}}`,
		`{"identifier":"security","name":"Security","critical":true}`,
		`{"identifier":"comments","name":"Comments"}`,
	} {
		if _, err := e.Stack.Categories.Create(ctx, app, []byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	var user int64
	if err := e.Stack.DB.Pool.QueryRow(ctx, `INSERT INTO users (app_id, identifier) VALUES ($1, 'alice') RETURNING id`, app).Scan(&user); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO flows (app_id, identifier, name, draft, published_version, critical) VALUES
		($1, 'weekly-digest', 'Weekly digest', '{"steps":[]}', 1, false), ($1, 'otp', 'Sign-in code', '{"steps":[]}', 1, true),
		($1, 'payment-reminder', 'Payment reminder', '{"steps":[]}', 1, false)`, app); err != nil {
		t.Fatal(err)
	}
	signer := unsubscribe.NewPreferencesSigner(e.Cfg.SecretKey)
	sign := func(exp time.Time) string {
		return unsubscribe.PreferencesPath + signer.Sign(unsubscribe.Claims{App: app, User: user, Kind: unsubscribe.KindPreferences, Expires: exp})
	}

	cmd := exec.Command("npx", "playwright", "test", "test/browser/preference-page.spec.ts")
	cmd.Dir = consoleDir
	cmd.Env = append(os.Environ(), "HERALD_URL="+e.BaseURL, "HERALD_CHROMIUM="+chromium,
		"PREFS_URL="+sign(time.Now().Add(time.Hour)), "PREFS_EXPIRED_URL="+sign(time.Now().Add(-time.Minute)),
		"PREFS_SCREENSHOTS="+os.Getenv("HERALD_PREFS_SCREENSHOTS"))
	out, err := cmd.CombinedOutput()
	t.Logf("npx playwright test:\n%s", out)
	if err != nil {
		t.Fatalf("the preference page's browser tests failed: %v", err)
	}

	// What the journeys saved: billing email, SMS and the weekly digest off (mouse),
	// news email on (keyboard); the critical category untouched.
	cats, err := e.Stack.Prefs.Get(ctx, app, "alice")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"billing/email": false, "billing/inApp": true, "news/email": true, "security/email": true, "comments/email": true}
	for _, p := range cats {
		for _, cp := range p.ChannelPreferences {
			if w, ok := want[p.Category.Identifier+"/"+cp.Channel]; ok && w != cp.Enabled {
				t.Errorf("%s/%s: %v, want %v", p.Category.Identifier, cp.Channel, cp.Enabled, w)
			}
		}
	}
	if ch, err := e.Stack.Prefs.Channels(ctx, app, "alice"); err != nil || ch["sms"] || !ch["email"] {
		t.Errorf("channels: %v %v", ch, err)
	}
	flows, err := e.Stack.Prefs.Flows(ctx, app, "alice")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flows {
		if f.Enabled != (f.Workflow.Identifier != "weekly-digest") {
			t.Errorf("workflow %s enabled %v", f.Workflow.Identifier, f.Enabled)
		}
		// The keyboard journey turned the payment reminder's email off, nothing else of it.
		if want := f.Workflow.Identifier == "payment-reminder"; want != (len(f.Channels) == 1 && !f.Channels["email"]) {
			t.Errorf("workflow %s channels %v", f.Workflow.Identifier, f.Channels)
		}
	}
}
