package security

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// The per-app send rate limit (HERALD_SEND_RATE_LIMIT, HERALD_SEND_RATE_BURST): the burst
// passes, the next send is refused with 429, Retry-After and a message saying the limit,
// nothing is stored for it, other apps are not affected, and after Retry-After the app may
// send again.
func TestSendRateLimit(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) {
		c.SendRateLimit, c.SendRateBurst = 0.5, 5 // a token every 2 s: the burst is not refilled while a loaded machine sends it
	}})
	other := e.NewApp("other")
	body := `{"notification":{"title":"Hi"},"sendTo":{"recipients":["ann"]}}`
	for i := range 5 {
		e.Must(e.Do("POST", "/v3/notifications", body, e.AppHeaders()), 202, fmt.Sprintf("send %d of the burst", i+1))
	}
	res := e.Do("POST", "/v3/notifications", body, e.AppHeaders())
	if res.Status != 429 {
		t.Fatalf("send past the burst: %d %s", res.Status, res.Body)
	}
	retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
	if err != nil || retry < 1 {
		t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	msg, _ := res.Map(t)["message"].(string)
	if !strings.Contains(msg, "send rate limit exceeded: this app may send 0.5 notifications per second (bursts of 5)") {
		t.Errorf("message %q", msg)
	}
	var stored int
	if err := e.Stack.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM notification_requests").Scan(&stored); err != nil || stored != 5 {
		t.Errorf("%d requests stored, want the 5 accepted (%v)", stored, err)
	}
	h := stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": other.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": other.APISecret}
	e.Must(e.Do("POST", "/v3/notifications", body, h), 202, "another app's send")
	// Reads are not limited.
	e.Must(e.Do("GET", "/v3/notifications", nil, e.UserHeaders("ann")), 200, "inbox read")
	time.Sleep(time.Duration(retry) * time.Second)
	e.Must(e.Do("POST", "/v3/notifications", body, e.AppHeaders()), 202, "send after Retry-After")
	t.Logf("send rate limit 0.5/s, burst 5: 5 accepted, the 6th refused with 429 and Retry-After %d s; another app unaffected; accepted again after the wait", retry)
}

// Bodies over HERALD_BODY_LIMIT are refused with 413 and a message giving the limit; a
// body at the limit is read. (TestHTTPFuzzEveryRoute sends an oversized body to every
// route.)
func TestBodyLimit(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) { c.BodyLimit = 4096 }})
	pad := func(n int) string {
		head := `{"notification":{"title":"Hi"},"sendTo":{"recipients":["ann"]},"data":{"pad":"`
		return head + strings.Repeat("x", n-len(head)-3) + `"}}`
	}
	e.Must(e.Do("POST", "/v3/notifications", pad(4096), e.AppHeaders()), 202, "a body of exactly the limit")
	res := e.Must(e.Do("POST", "/v3/notifications", pad(4097), e.AppHeaders()), 413, "one byte over")
	if msg := res.Map(t)["message"]; msg != "request body too large: the limit is 4096 bytes" {
		t.Errorf("message %v", msg)
	}
}

var boundRule = regexp.MustCompile(`(\w+) must not be greater than (\d+)`)

// TestPagingBoundsOnEveryListRoute finds the reads of the route table that page with
// limit, pageNo or page (a non-number is refused naming the parameter) and checks each
// bound: zero, negative, past the maximum and absurdly large values are 400 naming the
// rule; the maximum itself is read. A list route added later is checked the same way.
func TestPagingBoundsOnEveryListRoute(t *testing.T) {
	w := newWorld(t)
	e, a := w.e, w.a
	var paged []string
	for _, r := range registeredRoutes(t, e) {
		if r.method != "GET" || (!strings.HasPrefix(r.path, "/v1/") && !strings.HasPrefix(r.path, "/v3/")) {
			continue
		}
		if _, stream := streams[r.path]; stream {
			continue
		}
		vals := map[string]string{}
		skip := false
		for _, p := range r.params {
			f, ok := fixtureFor(r, p)
			if !ok || f.notOwn {
				skip = true // TestTenantIsolationMatrix names the missing fixture
				break
			}
			vals[p] = f.value(a)
		}
		if skip {
			continue
		}
		path := r.fill(vals)
		sep := "?"
		if r.path == "/v3/notifications" {
			sep = "?userIdentifier=" + a.user + "&"
		}
		for _, q := range []string{"limit", "pageNo", "page"} {
			res := e.Do("GET", path+sep+q+"=abc", nil, a.headers(e, r.path))
			if res.Status != 400 || !strings.Contains(string(res.Body), q+" must be an integer") {
				continue
			}
			max := 0
			huge := e.Do("GET", path+sep+q+"=99999999999", nil, a.headers(e, r.path))
			if m := boundRule.FindStringSubmatch(string(huge.Body)); huge.Status == 400 && m != nil && m[1] == q {
				max, _ = strconv.Atoi(m[2])
			} else {
				t.Errorf("%s?%s=99999999999: %d %s, want 400 naming the maximum", r, q, huge.Status, huge.Body)
				continue
			}
			for _, bad := range []string{"0", "-1", strconv.Itoa(max + 1), "1.5", "1e3"} {
				if res := e.Do("GET", path+sep+q+"="+bad, nil, a.headers(e, r.path)); res.Status != 400 || !strings.Contains(string(res.Body), q+" must") {
					t.Errorf("%s?%s=%s: %d %s, want 400", r, q, bad, res.Status, res.Body)
				}
			}
			e.Must(e.Do("GET", path+sep+q+"="+strconv.Itoa(max), nil, a.headers(e, r.path)), 200, fmt.Sprintf("%s?%s=%d (the maximum)", r, q, max))
			paged = append(paged, fmt.Sprintf("%s (%s ≤ %d)", r, q, max))
		}
	}
	if len(paged) < 3 {
		t.Errorf("only %d paged reads found: %v", len(paged), paged)
	}
	t.Logf("paging bounds enforced on: %s", strings.Join(paged, "; "))
}

// With HERALD_REDIS_URL the send rate limit's buckets live in Redis: the burst passes, the
// next send is refused, and the bucket is the Redis key of the app.
func TestSendRateLimitInRedis(t *testing.T) {
	url := os.Getenv("HERALD_TEST_REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	probe, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rc := redis.NewClient(probe)
	defer rc.Close()
	if err := rc.Ping(t.Context()).Err(); err != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("Redis is required: %v", err)
		}
		t.Skipf("no Redis: %v", err)
	}
	e := stacktest.New(t, stacktest.Options{Configure: func(c *config.Config) {
		c.SendRateLimit, c.SendRateBurst, c.RedisURL = 0.01, 3, url
	}})
	if e.Stack.Limits.Name() != "redis" {
		t.Fatalf("the limits are kept in %s, want redis", e.Stack.Limits.Name())
	}
	// Test databases restart app ids at 1: start from a fresh bucket for this app.
	bucket := fmt.Sprintf("herald:rl:send:app:%d", e.App.AppID)
	rc.Del(t.Context(), bucket)
	t.Cleanup(func() { rc.Del(context.Background(), bucket) })
	body := `{"notification":{"title":"Hi"},"sendTo":{"recipients":["ann"]}}`
	for i := range 3 {
		e.Must(e.Do("POST", "/v3/notifications", body, e.AppHeaders()), 202, fmt.Sprintf("send %d of the burst", i+1))
	}
	if res := e.Do("POST", "/v3/notifications", body, e.AppHeaders()); res.Status != 429 {
		t.Fatalf("send past the burst: %d %s", res.Status, res.Body)
	}
	if n, err := rc.Exists(t.Context(), bucket).Result(); err != nil || n != 1 {
		t.Errorf("Redis key %s exists %d (%v), want the app's bucket", bucket, n, err)
	}
}
