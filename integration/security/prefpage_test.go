package security

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestPreferencePageLinks attacks and uses the hosted preference page: tokens of another
// purpose (one-click unsubscribe both ways), expired, tampered or forged are refused with
// a 404 page and no write; a POST without the CSRF pair, with a wrong one, or with the
// field of another link is refused (403) and changes nothing; a valid POST stores exactly
// the switches that changed, ignoring critical switches and fields naming another app's
// category or unknown switches; the page carries the strict headers.
func TestPreferencePageLinks(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.UnsubscribeRateLimit = 0 }})
	ctx := context.Background()
	a, b := e.App.AppID, e.NewApp("other app").AppID
	cat := func(app int64, body string) int64 {
		c, err := e.Stack.Categories.Create(ctx, app, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	exec := func(sql string, args ...any) {
		if _, err := e.Stack.DB.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	user := func(app int64, ident string) int64 {
		var id int64
		if err := e.Stack.DB.Pool.QueryRow(ctx, `INSERT INTO users (app_id, identifier) VALUES ($1, $2) RETURNING id`, app, ident).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	billing := cat(a, `{"identifier":"billing","name":"Billing"}`)
	news := cat(a, `{"identifier":"news","name":"News","channelDefaults":{"email":false}}`)
	security := cat(a, `{"identifier":"security","name":"Security","critical":true}`)
	foreign := cat(b, `{"identifier":"secret-category-of-b","name":"Secret of B"}`)
	exec(`INSERT INTO flows (app_id, identifier, name, draft, published_version, critical) VALUES
		($1, 'weekly-digest', 'Weekly digest', '{"steps":[]}', 1, false), ($1, 'otp', 'Sign-in code', '{"steps":[]}', 1, true),
		($2, 'flow-of-b', 'Flow of B', '{"steps":[]}', 1, false)`, a, b)
	alice, bob := user(a, "alice"), user(b, "bob-of-b")

	pref, unsub := unsubscribe.NewPreferencesSigner(e.Cfg.SecretKey), unsubscribe.NewSigner(e.Cfg.SecretKey)
	later := time.Now().Add(time.Hour)
	sign := func(app, user int64, exp time.Time) string {
		return pref.Sign(unsubscribe.Claims{App: app, User: user, Kind: unsubscribe.KindPreferences, Expires: exp})
	}
	good := sign(a, alice, later)
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	raw[16] ^= 1 // the user id
	rows := func() int {
		var n int
		if err := e.Stack.DB.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM preferences) + (SELECT count(*) FROM channel_preferences) + (SELECT count(*) FROM flow_preferences)`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	// Refused links: the same 404 page whatever the reason, nothing written.
	for name, tok := range map[string]string{
		"an unsubscribe token":                 unsub.Sign(unsubscribe.Claims{App: a, User: alice, Kind: unsubscribe.KindCategory, Scope: billing, Expires: later}),
		"the preference kind, unsubscribe key": unsub.Sign(unsubscribe.Claims{App: a, User: alice, Kind: unsubscribe.KindPreferences, Expires: later}),
		"expired":                              sign(a, alice, time.Now().Add(-time.Second)),
		"tampered (user id)":                   base64.RawURLEncoding.EncodeToString(raw),
		"signed with another key":              unsubscribe.NewPreferencesSigner(secrets.Token(32)).Sign(unsubscribe.Claims{App: a, User: alice, Kind: unsubscribe.KindPreferences, Expires: later}),
		"another app's user":                   sign(a, bob, later),
		"oversized":                            strings.Repeat("A", 1000),
	} {
		for _, method := range []string{"GET", "POST"} {
			res, body := browserCall(t, http.DefaultClient, method, e.BaseURL+unsubscribe.PreferencesPath+tok, nil)
			if res.StatusCode != 404 || !strings.Contains(body, "This link has expired") || strings.Contains(body, "Secret of B") || strings.Contains(body, "bob-of-b") {
				t.Errorf("%s, %s: %d %.300s", name, method, res.StatusCode, body)
			}
		}
	}
	// The preference token does not unsubscribe.
	if res, _ := unsubscribeCall(t, e, "POST", good); res.StatusCode != 404 {
		t.Errorf("a preference token posted as one-click unsubscribe: %d", res.StatusCode)
	}
	if n := rows(); n != 0 {
		t.Fatalf("refused links wrote %d switches", n)
	}

	// The page: the user's switches only, with strict headers and the CSRF cookie.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	pageURL := e.BaseURL + unsubscribe.PreferencesPath + good
	res, body := browserCall(t, browser, "GET", pageURL, nil)
	if res.StatusCode != 200 {
		t.Fatalf("GET the page: %d %s", res.StatusCode, body)
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "style-src 'sha256-", "form-action 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	for h, want := range map[string]string{"X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"} {
		if got := res.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}
	if c := res.Header.Get("Set-Cookie"); !strings.Contains(c, "SameSite=Strict") || !strings.Contains(c, "HttpOnly") || strings.Contains(strings.ToLower(c), "path=") {
		t.Errorf("CSRF cookie: %q", c)
	}
	for _, want := range []string{`name="category.` + itoa(billing) + `.email"`, `<span class="vh">Billing: </span>Email`, `name="channel.sms"`,
		`name="workflow.weekly-digest"`, `name="workflow.weekly-digest.email"`, `<span class="vh">Weekly digest: </span>Email`,
		"Sign-in code (always on)", "Security (always on)", "<script"} {
		if strings.Contains(body, want) == (want == "<script") {
			t.Errorf("the page: %q present = %v", want, want == "<script")
		}
	}
	if strings.Contains(body, "Secret of B") || strings.Contains(body, "Flow of B") || strings.Contains(body, "bob-of-b") {
		t.Error("the page shows another app's names")
	}
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if csrf == nil {
		t.Fatal("no CSRF field")
	}
	form := func(token string) url.Values {
		return url.Values{
			"csrf":                                  {token},
			"category." + itoa(billing) + ".email":  {"0"},      // on by default: off
			"category." + itoa(news) + ".email":     {"0", "1"}, // off by default: on (the checkbox after the hidden 0)
			"category." + itoa(billing) + ".inApp":  {"0", "1"}, // unchanged: not written
			"category." + itoa(security) + ".email": {"0"},      // critical: ignored
			"category." + itoa(foreign) + ".email":  {"0"},      // another app's category: ignored
			"channel.sms":                           {"0"},      // no SMS, ever
			"channel.fax":                           {"0"},      // not a channel: ignored
			"workflow.weekly-digest":                {"0"},      // off
			"workflow.otp":                          {"0"},      // critical: ignored
			"workflow.flow-of-b":                    {"0"},      // another app's workflow: ignored
			"workflow.weekly-digest.email":          {"0"},      // workflow × channel: off
			"workflow.weekly-digest.fax":            {"0"},      // not a channel: ignored
			"workflow.otp.email":                    {"0"},      // critical: ignored
			"workflow.flow-of-b.email":              {"0"},      // another app's workflow: ignored
		}
	}

	// CSRF: no field, a wrong field, the field of another link, no cookie → 403, nothing changed.
	other := sign(a, user(a, "carol"), later)
	noCookie := &http.Client{CheckRedirect: browser.CheckRedirect}
	for name, c := range map[string]struct {
		client *http.Client
		form   url.Values
	}{
		"no CSRF field":              {browser, func() url.Values { f := form(""); f.Del("csrf"); return f }()},
		"a wrong CSRF field":         {browser, form(base64.RawURLEncoding.EncodeToString(make([]byte, 32)))},
		"the CSRF field, no cookie":  {noCookie, form(csrf[1])},
		"another link's CSRF field":  {browser, form(csrfOf(t, browser, e.BaseURL+unsubscribe.PreferencesPath+other))},
		"a CSRF field not in base64": {browser, form("!!")},
	} {
		if res, body := browserCall(t, c.client, "POST", pageURL, c.form); res.StatusCode != 403 || !strings.Contains(body, "not saved") {
			t.Errorf("%s: %d %.200s", name, res.StatusCode, body)
		}
	}
	if n := rows(); n != 0 {
		t.Fatalf("refused forms wrote %d switches", n)
	}

	// A valid form: 303 to the confirmation, exactly the changed switches stored.
	res, _ = browserCall(t, browser, "POST", pageURL, form(csrf[1]))
	if res.StatusCode != 303 || res.Header.Get("Location") != good+"?saved=1" {
		t.Fatalf("valid POST: %d Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	if n := rows(); n != 5 {
		t.Errorf("the valid form wrote %d switches, want 5 (billing email, news email, sms, weekly digest, weekly digest's email)", n)
	}
	got, err := e.Stack.Prefs.Get(ctx, a, "alice")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"billing/email": false, "news/email": true, "security/email": true, "billing/inApp": true}
	for _, p := range got {
		for _, cp := range p.ChannelPreferences {
			k := p.Category.Identifier + "/" + cp.Channel
			if w, ok := want[k]; ok && w != cp.Enabled {
				t.Errorf("%s: %v, want %v", k, cp.Enabled, w)
			}
		}
	}
	if chans, err := e.Stack.Prefs.Channels(ctx, a, "alice"); err != nil || chans["sms"] || !chans["email"] {
		t.Errorf("channels: %v %v", chans, err)
	}
	flows, err := e.Stack.Prefs.Flows(ctx, a, "alice")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flows {
		if f.Enabled != (f.Workflow.Identifier == "otp") {
			t.Errorf("workflow %s: enabled %v", f.Workflow.Identifier, f.Enabled)
		}
		if want := map[string]bool{"weekly-digest": true}[f.Workflow.Identifier]; want != (len(f.Channels) == 1 && !f.Channels["email"]) {
			t.Errorf("workflow %s: channels %v", f.Workflow.Identifier, f.Channels)
		}
	}
	if got, _ := e.Stack.Prefs.Flows(ctx, b, "bob-of-b"); len(got) != 1 || !got[0].Enabled || len(got[0].Channels) != 0 {
		t.Errorf("another app's workflow changed: %+v", got)
	}
	var foreignRows int
	if err := e.Stack.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM preferences WHERE category_id = ANY($1)`, []int64{foreign, security}).Scan(&foreignRows); err != nil || foreignRows != 0 {
		t.Errorf("critical or foreign category switches written: %d %v", foreignRows, err)
	}
	if _, body := browserCall(t, browser, "GET", pageURL+"?saved=1", nil); !strings.Contains(body, "Your preferences are saved.") {
		t.Errorf("the confirmation: %.300s", body)
	}
	// Saving the page again unchanged writes nothing more.
	before := rows()
	if res, _ := browserCall(t, browser, "POST", pageURL, form(csrf[1])); res.StatusCode != 303 || rows() != before {
		t.Errorf("saving again: %d, %d switches (was %d)", res.StatusCode, rows(), before)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// browserCall calls the page as a browser does (Accept: text/html), posting form when set.
func browserCall(t *testing.T, c *http.Client, method, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	var rd io.Reader
	if form != nil {
		rd = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// csrfOf opens a page with the client and returns its CSRF field.
func csrfOf(t *testing.T, c *http.Client, u string) string {
	t.Helper()
	_, body := browserCall(t, c, "GET", u, nil)
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF field at %s", u)
	}
	return m[1]
}
