package realtime_test

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestSSEStreamsTheUsersEvents(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	a := newAuthApps(t, e)
	ctx := context.Background()
	alice := userID(t, e, e.App.AppID, "alice")
	for _, tc := range []struct {
		name    string
		url     string
		headers map[string]string
		app     int64
		user    int64
	}{
		{"realtime token in the query", "/v3/realtime?token=" + url.QueryEscape(realtimeToken(t, e, "alice")), nil, e.App.AppID, alice},
		{"apiKey and userId in the query", "/v3/realtime?" + userQuery(e, "alice").Encode(), nil, e.App.AppID, alice},
		{"user headers", "/v3/realtime", e.UserHeaders("alice"), e.App.AppID, alice},
		{"user JWT as bearer (secure mode)", "/v3/realtime", map[string]string{"Authorization": "Bearer " + a.jwt("dora", time.Hour)}, a.secure.AppID, userID(t, e, a.secure.AppID, "dora")},
		{"hmac app, signature header", "/v3/realtime", map[string]string{"X-SERVICE-API-KEY": a.hmac.APIKey, "X-SERVICE-USER-ID": "erin", "X-SERVICE-USER-SIGNATURE": signature(a.hmac.APISecret, "erin")}, a.hmac.AppID, userID(t, e, a.hmac.AppID, "erin")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := realtimetest.OpenSSE(t, e.BaseURL+tc.url, tc.headers)
			if c.Status != 200 || c.Header.Get("Content-Type") != "text/event-stream" || c.Header.Get("X-Request-Id") == "" {
				t.Fatalf("status %d, headers %v: %s", c.Status, c.Header, c.Body)
			}
			e.Eventually(realtimetest.WaitTimeout, "the stream to attach", func() bool { return e.Stack.Realtime.Hub.Stats().Connections == 1 })
			e.Stack.Events.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: tc.app, UserIDs: []int64{tc.user}, NotificationIDs: []int64{41}})
			if ev := c.Event(events.NotificationRead); ev.Data != `{"id":41}` {
				t.Fatalf("event %+v", ev)
			}
			c.Close()
			e.Eventually(realtimetest.WaitTimeout, "the stream to detach", func() bool { return e.Stack.Realtime.Hub.Stats().Connections == 0 })
		})
	}
}

func TestSSERefusesBadCredentials(t *testing.T) {
	e := newEnv(t, stacktest.Options{})
	for _, tc := range []struct{ query, want string }{
		{"", `{"status":"error","message":"No authentication parameters found: pass apiKey and userId, or a token"}`},
		{"?token=hrt_forged.sig", `{"status":"error","message":"the realtime token is invalid or expired: request a new one with POST /v3/sdk/realtimeTokenRequests"}`},
		{"?apiKey=nope&userId=alice", `{"status":"error","message":"Invalid API key"}`},
	} {
		c := realtimetest.OpenSSE(t, e.BaseURL+"/v3/realtime"+tc.query, nil)
		if c.Status != 401 || c.Body != tc.want {
			t.Errorf("%q: %d %s", tc.query, c.Status, c.Body)
		}
	}
}

func TestSSESendsHeartbeats(t *testing.T) {
	e := newEnv(t, stacktest.Options{Configure: func(c *config.Config) { c.RealtimePingInterval = pingFast }})
	res, err := http.Get(e.BaseURL + "/v3/realtime?" + userQuery(e, "alice").Encode())
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET: %v", err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	var lines []string
	for len(lines) < 10 && sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == ": ping" {
			return
		}
	}
	t.Fatalf("no heartbeat comment in %q", strings.Join(lines, "\n"))
}
