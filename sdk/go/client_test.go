package herald

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

var fast = RetryPolicy{MaxRetries: 3, BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond, MaxRetryAfter: 2 * time.Second}

func newTest(t *testing.T, h http.HandlerFunc, opts ...Option) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := NewClient(append([]Option{WithBaseURL(srv.URL), WithAPIKey("k"), WithAPISecret("s"), WithRetry(fast)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sendReq() SendRequest {
	return SendRequest{Notification: &SendRequestNotification{Title: "t"}, SendTo: &SendRequestSendTo{Recipients: Recipients("alice")}}
}

// recorder keeps the Idempotency-Key of every attempt.
type recorder struct {
	mu   sync.Mutex
	keys []string
}

func (r *recorder) add(k string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keys = append(r.keys, k)
	return len(r.keys)
}

func TestSendRetries5xxWithOneGeneratedKey(t *testing.T) {
	var rec recorder
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-SERVICE-API-KEY") != "k" || r.Header.Get("X-SERVICE-API-SECRET") != "s" {
			t.Errorf("credentials: %v", r.Header)
		}
		if rec.add(r.Header.Get("Idempotency-Key")) < 3 {
			w.WriteHeader(503)
			fmt.Fprint(w, `{"status":"error","message":"busy","requestId":"r1"}`)
			return
		}
		w.WriteHeader(202)
		fmt.Fprint(w, `{"requestId":"abc"}`)
	})
	res, err := c.Send(context.Background(), sendReq())
	if err != nil || res.RequestID != "abc" {
		t.Fatalf("send: %v %v", res, err)
	}
	if len(rec.keys) != 3 || rec.keys[0] == "" || rec.keys[0] != rec.keys[1] || rec.keys[1] != rec.keys[2] {
		t.Fatalf("attempts carried keys %q, want 3 equal non-empty keys", rec.keys)
	}
}

func TestSendKeepsTheCallersKey(t *testing.T) {
	var rec recorder
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		rec.add(r.Header.Get("Idempotency-Key"))
		w.WriteHeader(202)
		fmt.Fprint(w, `{"requestId":"abc"}`)
	})
	if _, err := c.Send(context.Background(), sendReq(), WithIdempotencyKey("order-1")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Send(context.Background(), sendReq()); err != nil {
		t.Fatal(err)
	}
	if rec.keys[0] != "order-1" || rec.keys[1] == "" || rec.keys[1] == "order-1" {
		t.Fatalf("keys %q", rec.keys)
	}
}

func TestBadRequestIsNotRetriedAndListsProblems(t *testing.T) {
	var rec recorder
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		rec.add("")
		w.WriteHeader(400)
		fmt.Fprint(w, `{"status":"error","message":["title must be a string","sendTo is required"]}`)
	})
	_, err := c.Send(context.Background(), sendReq())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || len(apiErr.Problems) != 2 || apiErr.Problems[1] != "sendTo is required" {
		t.Fatalf("err = %#v", err)
	}
	if len(rec.keys) != 1 {
		t.Fatalf("a 400 was sent %d times", len(rec.keys))
	}
}

func TestTooManyRequestsHonoursRetryAfter(t *testing.T) {
	var rec recorder
	var first time.Time
	var waited time.Duration
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		if rec.add("") == 1 {
			first = time.Now()
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"status":"error","message":"slow down"}`)
			return
		}
		waited = time.Since(first)
		w.WriteHeader(202)
		fmt.Fprint(w, `{"requestId":"abc"}`)
	})
	if _, err := c.Send(context.Background(), sendReq()); err != nil {
		t.Fatal(err)
	}
	if len(rec.keys) != 2 || waited < time.Second {
		t.Fatalf("attempts %d, waited %s (want 2 attempts, at least the 1 s of Retry-After)", len(rec.keys), waited)
	}
}

func TestRetryAfterBeyondTheLimitReturnsThe429(t *testing.T) {
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(429)
		fmt.Fprint(w, `{"status":"error","message":"quota"}`)
	})
	_, err := c.Send(context.Background(), sendReq())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.RetryAfter != time.Hour {
		t.Fatalf("err = %v", err)
	}
}

func TestConnectionResetIsRetriedForSends(t *testing.T) {
	var rec recorder
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		if rec.add(r.Header.Get("Idempotency-Key")) == 1 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		w.WriteHeader(202)
		fmt.Fprint(w, `{"requestId":"abc"}`)
	})
	if _, err := c.Send(context.Background(), sendReq()); err != nil {
		t.Fatal(err)
	}
	if len(rec.keys) != 2 || rec.keys[0] != rec.keys[1] {
		t.Fatalf("keys %q", rec.keys)
	}
}

func TestNonIdempotentPostIsNotRetriedOn5xx(t *testing.T) {
	var rec recorder
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		rec.add("")
		w.WriteHeader(500)
		fmt.Fprint(w, `{"status":"error","message":"internal","requestId":"req-9"}`)
	})
	_, err := c.CreateTopic(context.Background(), TopicCreate{Identifier: "a", Name: "A"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.RequestID != "req-9" || len(rec.keys) != 1 {
		t.Fatalf("err %v after %d attempts", err, len(rec.keys))
	}
}

func TestBackoffIsCappedAndJittered(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	for attempt, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		d := p.backoff(attempt)
		if d < want/2 || d > want {
			t.Errorf("attempt %d: %s not in [%s, %s]", attempt, d, want/2, want)
		}
	}
}

func TestEnvironmentAndHeaderPrefix(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header
		fmt.Fprint(w, `[]`)
	}))
	defer srv.Close()
	t.Setenv("HERALD_URL", srv.URL+"/v3/")
	t.Setenv("HERALD_API_KEY", "envkey")
	t.Setenv("HERALD_API_SECRET", "envsecret")
	c, err := NewClient(WithHeaderPrefix("X-HERALD-"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTopics(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got.Get("X-HERALD-API-KEY") != "envkey" || got.Get("X-HERALD-API-SECRET") != "envsecret" {
		t.Fatalf("headers %v", got)
	}
	t.Setenv("HERALD_API_KEY", "")
	if _, err := NewClient(); err == nil {
		t.Fatal("a client without an API key was made")
	}
}

func TestUserModeSendsNoSecretAndSignsTokens(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	var got http.Header
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header
		fmt.Fprint(w, `{"unreadCount":0,"pagination":{"totalCount":0},"data":[]}`)
	}, WithSigningKey(key, time.Minute))
	if _, err := c.AsUser("bob/1").ListNotifications(context.Background(), ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if got.Get("X-SERVICE-API-SECRET") != "" || got.Get("X-SERVICE-USER-ID") != "bob/1" {
		t.Fatalf("headers %v", got)
	}
	tok := strings.TrimPrefix(got.Get("Authorization"), "Bearer ")
	claims := verify(t, tok, &key.PublicKey)
	if claims["sub"] != "bob/1" || claims["apiKey"] != "k" || claims["exp"] == nil {
		t.Fatalf("claims %v", claims)
	}
}

// verify checks an RS256 JWT with the standard library and returns its claims.
func verify(t *testing.T, tok string, pub *rsa.PublicKey) map[string]any {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q", tok)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, sum[:], sig); err != nil {
		t.Fatalf("signature: %v", err)
	}
	var h, c map[string]any
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if json.Unmarshal(hb, &h) != nil || json.Unmarshal(cb, &c) != nil || h["alg"] != "RS256" {
		t.Fatalf("header %s claims %s", hb, cb)
	}
	return c
}

func TestUserTokenNeedsAnExpiry(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	if _, err := SignUserToken(key, "k", "alice", 0); err == nil {
		t.Fatal("a token without exp was signed")
	}
}

func TestUserSignature(t *testing.T) {
	// base64(HMAC-SHA256("secret", "alice")), computed independently: printf alice | openssl dgst -sha256 -hmac secret -binary | base64
	if got := UserSignature("secret", "alice"); got != "Q2DGe8gQJRFARFeNfE6ODwL9DK6Z8i1gM5Do+dyYiPg=" {
		t.Fatalf("got %s", got)
	}
}

func TestNotificationsWalksEveryPage(t *testing.T) {
	const total = 45
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		var page, limit int
		fmt.Sscan(r.URL.Query().Get("pageNo"), &page)
		fmt.Sscan(r.URL.Query().Get("limit"), &limit)
		var data []Notification
		for i := (page - 1) * limit; i < total && i < page*limit; i++ {
			data = append(data, Notification{ID: int64(i + 1)})
		}
		json.NewEncoder(w).Encode(NotificationPage{Data: data, Pagination: &NotificationPagePagination{TotalCount: total}})
	})
	var ids []int64
	for n, err := range c.AsUser("alice").Notifications(context.Background(), ListOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	if len(ids) != total || ids[0] != 1 || ids[total-1] != total {
		t.Fatalf("walked %d: %v", len(ids), ids)
	}
}

func TestTimeoutIsRetriedForSends(t *testing.T) {
	var rec recorder
	release := make(chan struct{})
	defer close(release)
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		if rec.add(r.Header.Get("Idempotency-Key")) == 1 {
			<-release // the first attempt never answers in time
			return
		}
		w.WriteHeader(202)
		fmt.Fprint(w, `{"requestId":"abc"}`)
	}, WithHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}))
	if _, err := c.Send(context.Background(), sendReq()); err != nil {
		t.Fatal(err)
	}
	if len(rec.keys) != 2 || rec.keys[0] != rec.keys[1] {
		t.Fatalf("keys %q", rec.keys)
	}
}

func TestChannelAndWorkflowPreferences(t *testing.T) {
	var method, path, body string
	c := newTest(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		method, path, body = r.Method, r.URL.RequestURI(), string(b)
		switch r.URL.Path {
		case "/v3/preferences/channels":
			fmt.Fprint(w, `{"sms":false,"email":true}`)
		case "/v3/preferences/workflows":
			fmt.Fprint(w, `[{"workflow":{"identifier":"w","name":"W"},"enabled":false,"channels":{},"critical":false}]`)
		default:
			fmt.Fprint(w, `{"locale":"de","translations":{"title":"Benachrichtigungen"}}`)
		}
	})
	u := c.AsUser("alice")
	ctx := context.Background()
	off := false
	sw, err := u.SetChannelPreferences(ctx, ChannelSwitches{Sms: &off})
	if err != nil || method != "PUT" || body != `{"sms":false}` || sw.Email == nil || !*sw.Email {
		t.Fatalf("set channels: %v %s %s %+v", err, method, body, sw)
	}
	wf, err := u.UpdateWorkflowPreferences(ctx, FlowPreferenceUpdate{Workflows: []FlowPreferenceUpdateWorkflowsItem{{Identifier: "w", Enabled: &off}}})
	if err != nil || method != "PATCH" || body != `{"workflows":[{"enabled":false,"identifier":"w"}]}` || len(wf) != 1 || wf[0].Workflow.Identifier != "w" {
		t.Fatalf("update workflows: %v %s %s %+v", err, method, body, wf)
	}
	tr, err := u.Translations(ctx, "de")
	if err != nil || path != "/v3/translations/inapp?locale=de" || tr.Translations["title"] != "Benachrichtigungen" {
		t.Fatalf("translations: %v %s %+v", err, path, tr)
	}
}
