package sdk_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	herald "github.com/heraldhq/herald/sdk/go"
)

// client is an SDK client of the stack's test app whose every exchange is checked against
// the OpenAPI document (as stacktest does for its own requests); extra options come last.
func client(t *testing.T, e *stacktest.Env, opts ...herald.Option) *herald.Client {
	t.Helper()
	checked := &http.Client{Transport: checkedTransport(t)}
	c, err := herald.NewClient(append([]herald.Option{herald.WithBaseURL(e.BaseURL), herald.WithHTTPClient(checked),
		herald.WithAPIKey(e.App.APIKey), herald.WithAPISecret(e.App.APISecret)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// contractCheck checks each exchange of the SDK against the developer API's document: a
// request the SDK builds or an answer it decodes that the document does not describe fails.
type contractCheck struct {
	t    *testing.T
	next http.RoundTripper
}

func checkedTransport(t *testing.T) http.RoundTripper {
	return &contractCheck{t: t, next: http.DefaultTransport}
}

// RoundTrip sends r and checks the exchange.
func (c *contractCheck) RoundTrip(r *http.Request) (*http.Response, error) {
	var reqBody []byte
	if r.Body != nil {
		reqBody, _ = io.ReadAll(r.Body)
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	res, err := c.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	cs, err := stacktest.Contracts()
	if err != nil {
		c.t.Errorf("contract: %v", err)
		return res, nil
	}
	// Contracts returns the /v1 document, then the /v3 one.
	if err := cs[1].Check(r.Clone(r.Context()), reqBody, &stacktest.Response{Status: res.StatusCode, Body: body, Header: res.Header}); err != nil {
		c.t.Errorf("contract: %v", err)
	}
	return res, nil
}

// counting counts the requests that leave the client, by status (through the contract check).
type counting struct {
	mu       sync.Mutex
	statuses []int
	next     http.RoundTripper
}

// RoundTrip sends r and records its status (0 for a transport error).
func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := c.next.RoundTrip(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.statuses = append(c.statuses, 0)
	} else {
		c.statuses = append(c.statuses, res.StatusCode)
	}
	return res, err
}

func (c *counting) seen() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]int(nil), c.statuses...)
}

func inboxLen(t *testing.T, u *herald.UserClient) int {
	t.Helper()
	p, err := u.ListNotifications(context.Background(), herald.ListOptions{})
	if err != nil {
		t.Fatalf("inbox: %v", err)
	}
	return len(p.Data)
}

func TestGoSDKSendReachesTheInbox(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()
	c := client(t, e)
	if cat, err := c.CreateCategory(ctx, herald.CategoryCreate{Identifier: "onboarding", Name: "Onboarding"}); err != nil || cat.ID == 0 {
		t.Fatalf("create category: %v %+v", err, cat)
	}
	res, err := c.Send(ctx, herald.SendRequest{
		Notification: &herald.SendRequestNotification{Title: "Welcome", Message: "Hello", Category: "onboarding"},
		SendTo: &herald.SendRequestSendTo{Recipients: []any{"alice",
			herald.Recipient{Identifier: "bob", Email: "bob@example.com", Profile: map[string]any{"name": "Bob"}}}},
		Data: map[string]any{"orderId": 42},
	})
	if err != nil || res.RequestID == "" {
		t.Fatalf("send: %v %v", res, err)
	}
	bob := c.AsUser("bob")
	e.Eventually(30*time.Second, "the notification in bob's inbox", func() bool { return inboxLen(t, bob) == 1 })
	page, err := bob.ListNotifications(ctx, herald.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := page.Data[0]
	if n.Title != "Welcome" || n.Message != "Hello" || n.Data["orderId"] != float64(42) || n.Category == nil ||
		n.Category.Identifier != "onboarding" || page.UnreadCount != 1 {
		t.Fatalf("bob's inbox: %+v %+v", page, n)
	}
	e.Eventually(30*time.Second, "the notification in alice's inbox", func() bool { return inboxLen(t, c.AsUser("alice")) == 1 })

	// State changes on bob's behalf.
	if read, err := bob.MarkRead(ctx, n.ID); err != nil || read.ReadAt == nil {
		t.Fatalf("mark read: %v %+v", err, read)
	}
	if page, err := bob.ListNotifications(ctx, herald.ListOptions{Filter: herald.FilterUnread}); err != nil || len(page.Data) != 0 || page.UnreadCount != 0 {
		t.Fatalf("unread after mark read: %v %+v", err, page)
	}
	// Profile and preferences.
	if p, err := bob.UpdateProfile(ctx, herald.Profile{"plan": "pro"}); err != nil || p["plan"] != "pro" || p["name"] != "Bob" {
		t.Fatalf("profile: %v %v", err, p)
	}
	prefs, err := bob.Preferences(ctx)
	if err != nil || len(prefs) == 0 {
		t.Fatalf("preferences: %v %+v", err, prefs)
	}
	cat := prefs[0].Category
	err = bob.UpdatePreferences(ctx, herald.PreferenceUpdate{Preference: []herald.PreferenceUpdatePreferenceItem{{
		CategoryID: cat.ID, Channels: []herald.PreferenceUpdatePreferenceItemChannelsItem{{Channel: herald.ChannelInApp, Enabled: false}}}}})
	if err != nil {
		t.Fatalf("update preferences: %v", err)
	}
	prefs, _ = bob.Preferences(ctx)
	for _, p := range prefs {
		for _, ch := range p.ChannelPreferences {
			if p.Category.ID == cat.ID && ch.Channel == herald.ChannelInApp && ch.Enabled {
				t.Errorf("inApp still enabled for %s", cat.Identifier)
			}
		}
	}
	// Whole-channel and per-workflow switches, translations, the document.
	off := false
	if sw, err := bob.SetChannelPreferences(ctx, herald.ChannelSwitches{Sms: &off}); err != nil || sw.Sms == nil || *sw.Sms || sw.Email == nil || !*sw.Email {
		t.Fatalf("set channel preferences: %v %+v", err, sw)
	}
	if sw, err := bob.ChannelPreferences(ctx); err != nil || sw.Sms == nil || *sw.Sms {
		t.Fatalf("channel preferences: %v %+v", err, sw)
	}
	if q, err := bob.SetQuietHours(ctx, herald.QuietHoursUpdate{Start: "22:00", End: "07:00", Days: []herald.QuietHoursUpdateDaysItem{"sunday"}, Timezone: "Europe/Paris"}); err != nil || !q.Enabled || q.End != "07:00" || q.Timezone != "Europe/Paris" {
		t.Fatalf("set quiet hours: %v %+v", err, q)
	}
	if q, err := bob.QuietHours(ctx); err != nil || len(q.Days) != 1 || q.Days[0] != "sunday" {
		t.Fatalf("quiet hours: %v %+v", err, q)
	}
	if wf, err := bob.WorkflowPreferences(ctx); err != nil || len(wf) != 0 {
		t.Fatalf("workflow preferences: %v %+v", err, wf)
	}
	if tr, err := bob.Translations(ctx, "en"); err != nil || len(tr.Translations) == 0 {
		t.Fatalf("translations: %v %+v", err, tr)
	}
	if doc, err := c.OpenAPI(ctx); err != nil || doc["paths"] == nil {
		t.Fatalf("openapi: %v", err)
	}
}

// resetProxy forwards to upstream; the first request reaches the server, but its answer is
// replaced by a TCP reset, as when a connection breaks after the server acted.
type resetProxy struct {
	ln       net.Listener
	upstream string
	requests atomic.Int32
	// lost is the body of the answer the client never saw.
	lost chan []byte
}

func newResetProxy(t *testing.T, upstream string) *resetProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &resetProxy{ln: ln, upstream: strings.TrimPrefix(upstream, "http://"), lost: make(chan []byte, 1)}
	t.Cleanup(func() { ln.Close() })
	go p.serve()
	return p
}

func (p *resetProxy) serve() {
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.handle(conn)
	}
}

func (p *resetProxy) handle(conn net.Conn) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		req.RequestURI, req.URL.Scheme, req.URL.Host = "", "http", p.upstream
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			return
		}
		if p.requests.Add(1) == 1 {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			p.lost <- body
			conn.(*net.TCPConn).SetLinger(0) // Close sends RST
			return
		}
		err = res.Write(conn)
		res.Body.Close()
		if err != nil {
			return
		}
	}
}

func TestGoSDKIdempotentRetryAfterAConnectionReset(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()
	proxy := newResetProxy(t, e.BaseURL)
	c := client(t, e, herald.WithBaseURL("http://"+proxy.ln.Addr().String()))
	res, err := c.Send(ctx, herald.SendRequest{
		Notification: &herald.SendRequestNotification{Title: "Once"},
		SendTo:       &herald.SendRequestSendTo{Recipients: herald.Recipients("carol")},
	})
	if err != nil {
		t.Fatalf("send through a reset: %v", err)
	}
	if n := proxy.requests.Load(); n != 2 {
		t.Fatalf("the server saw %d requests, want 2 (the reset one and the retry)", n)
	}
	var lost herald.SendAccepted
	if err := json.Unmarshal(<-proxy.lost, &lost); err != nil || lost.RequestID != res.RequestID {
		t.Fatalf("the retry answered request %s, the lost answer %s (%v): the retry was a second send", res.RequestID, lost.RequestID, err)
	}
	// A later send to carol is a marker: once it is there, the first has been delivered too
	// and any duplicate would be beside it.
	direct := client(t, e)
	if _, err := direct.Send(ctx, herald.SendRequest{Notification: &herald.SendRequestNotification{Title: "Marker"},
		SendTo: &herald.SendRequestSendTo{Recipients: herald.Recipients("carol")}}); err != nil {
		t.Fatal(err)
	}
	carol := direct.AsUser("carol")
	titles := func() map[string]int {
		m := map[string]int{}
		for n, err := range carol.Notifications(ctx, herald.ListOptions{}) {
			if err != nil {
				t.Fatal(err)
			}
			m[n.Title]++
		}
		return m
	}
	e.Eventually(30*time.Second, "both notifications in carol's inbox", func() bool { m := titles(); return m["Once"] >= 1 && m["Marker"] == 1 })
	if m := titles(); m["Once"] != 1 {
		t.Fatalf("carol's inbox: %v, want one \"Once\"", m)
	}
}

func TestGoSDKBadRequestListsProblems(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	rt := counting{next: checkedTransport(t)}
	c := client(t, e, herald.WithHTTPClient(&http.Client{Transport: &rt}))
	_, err := c.Send(context.Background(), herald.SendRequest{
		Notification: &herald.SendRequestNotification{Title: "x", URL: "javascript:alert(1)"},
		SendTo:       &herald.SendRequestSendTo{Recipients: []any{map[string]any{"email": "no-identifier@example.com"}}},
	})
	var apiErr *herald.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 {
		t.Fatalf("err = %v, want a 400 *herald.APIError", err)
	}
	if len(apiErr.Problems) < 2 || !strings.Contains(strings.Join(apiErr.Problems, "\n"), "url") {
		t.Fatalf("problems %q, want one for the URL and one for the recipient", apiErr.Problems)
	}
	if s := rt.seen(); len(s) != 1 {
		t.Fatalf("a 400 was sent %d times (%v)", len(s), s)
	}
}

func TestGoSDKRetriesTooManyRequests(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) {
		c.SendRateLimit, c.SendRateBurst = 0.5, 1 // one send now, the next two seconds later
	}})
	rt := counting{next: checkedTransport(t)}
	c := client(t, e, herald.WithHTTPClient(&http.Client{Transport: &rt}))
	req := herald.SendRequest{Notification: &herald.SendRequestNotification{Title: "x"}, SendTo: &herald.SendRequestSendTo{Recipients: herald.Recipients("dave")}}
	// Send until the limit answers 429 once (a slow machine may space the first sends out);
	// every send must still succeed, the 429 having been retried after its Retry-After.
	n429 := func() (n int) {
		for _, st := range rt.seen() {
			if st == 429 {
				n++
			}
		}
		return n
	}
	for i := 0; i < 5 && n429() == 0; i++ {
		if _, err := c.Send(context.Background(), req); err != nil {
			t.Fatalf("send %d: %v (statuses %v)", i, err, rt.seen())
		}
	}
	s := rt.seen()
	if n429() == 0 || s[len(s)-1] != 202 {
		t.Fatalf("statuses %v: want a 429 retried into a 202", s)
	}
	t.Logf("sends at 0.5/s took these answers: %v", s)
}

func TestGoSDKUserTokenReadsTheInboxInSecureMode(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()
	secure := e.NewApp("secure")
	if _, _, err := e.Stack.Apps.GenerateRSAKey(ctx, secure.AppID); err != nil {
		t.Fatal(err)
	}
	key, err := e.Stack.Apps.RSAPrivateKey(ctx, secure.AppID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Stack.Apps.SetSecureAuth(ctx, secure.AppID, true); err != nil {
		t.Fatal(err)
	}
	c := client(t, e, herald.WithAPIKey(secure.APIKey), herald.WithAPISecret(secure.APISecret))
	if _, err := c.Send(ctx, herald.SendRequest{Notification: &herald.SendRequestNotification{Title: "Secret"},
		SendTo: &herald.SendRequestSendTo{Recipients: herald.Recipients("erin")}}); err != nil {
		t.Fatal(err)
	}
	tok, err := herald.SignUserToken(key, secure.APIKey, "erin", 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	erin := c.AsUser("erin", herald.WithUserToken(tok))
	e.Eventually(30*time.Second, "the notification in erin's inbox", func() bool { return inboxLen(t, erin) == 1 })
	// WithSigningKey signs a fresh token per call.
	signing := client(t, e, herald.WithAPIKey(secure.APIKey), herald.WithSigningKey(key, time.Minute))
	if p, err := signing.AsUser("erin").ListNotifications(ctx, herald.ListOptions{}); err != nil || p.Data[0].Title != "Secret" {
		t.Fatalf("with the signing key: %v %+v", err, p)
	}
	// Without a token, or with one for erin signed by another key, the API refuses.
	var apiErr *herald.APIError
	if _, err := c.AsUser("erin").ListNotifications(ctx, herald.ListOptions{}); !errors.As(err, &apiErr) || apiErr.Status != 401 {
		t.Fatalf("no token: %v", err)
	}
	_, _, _ = e.Stack.Apps.GenerateRSAKey(ctx, e.App.AppID)
	other, err := e.Stack.Apps.RSAPrivateKey(ctx, e.App.AppID)
	if err != nil {
		t.Fatal(err)
	}
	forged, _ := herald.SignUserToken(other, secure.APIKey, "erin", time.Minute)
	if _, err := c.AsUser("erin", herald.WithUserToken(forged)).ListNotifications(ctx, herald.ListOptions{}); !errors.As(err, &apiErr) || apiErr.Status != 401 {
		t.Fatalf("forged token: %v", err)
	}
}

func TestGoSDKPaginationWalks250(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	ctx := context.Background()
	c := client(t, e)
	if _, err := c.PutUser(ctx, "pager", herald.Profile{"name": "Pager"}); err != nil {
		t.Fatal(err)
	}
	// 250 inbox rows written directly: the walk is what is tested, not 250 deliveries.
	if _, err := e.Stack.DB.Pool.Exec(ctx, `INSERT INTO notifications (app_id, user_id, request_id, title)
		SELECT u.app_id, u.id, gen_random_uuid(), 'n' || g FROM users u, generate_series(1, 250) g
		WHERE u.app_id = $1 AND u.identifier = 'pager'`, e.App.AppID); err != nil {
		t.Fatal(err)
	}
	rt := counting{next: checkedTransport(t)}
	pc := client(t, e, herald.WithHTTPClient(&http.Client{Transport: &rt}))
	seen := map[int64]bool{}
	for n, err := range pc.AsUser("pager").Notifications(ctx, herald.ListOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if seen[n.ID] {
			t.Fatalf("notification %d walked twice", n.ID)
		}
		seen[n.ID] = true
	}
	if len(seen) != 250 {
		t.Fatalf("walked %d notifications, want 250", len(seen))
	}
	if pages := len(rt.seen()); pages != 13 {
		t.Fatalf("%d pages fetched, want 13 (250 by 20)", pages)
	}
}
