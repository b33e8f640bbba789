package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/hooktest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestPlanLimitsProviderCallsPerApp (issue 28, item 5): app A's plan (the free plan here)
// allows 2 provider calls at a time; app B's client subscribes to a plan without a limit.
// Both send 10 webhooks through a slow endpoint at once, over the real Temporal dev
// server. A never has more than 2 calls in flight (its batch sends at that pace: a message
// over the limit waits for the batch's own calls, and one no call of its batch can free
// waits on the run's timer with the reason in the message log), every message is
// delivered exactly once, and B's are not held.
func TestPlanLimitsProviderCallsPerApp(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.Ops.Plans = config.Plans{
			{ID: config.FreePlan, Name: "Free", Currency: "usd", MaxProviderCalls: 2},
			{ID: "pro", Name: "Pro", Currency: "usd", Price: 4900},
		}
	}})
	ctx := context.Background()
	hooks := hooktest.NewSlow(t, 300*time.Millisecond)
	b := e.NewApp("app b")
	sql(t, e, `WITH c AS (INSERT INTO clients (name) VALUES ('B Inc') RETURNING id),
		s AS (INSERT INTO subscriptions (client_id, provider, external_id, plan, status, state_at)
			SELECT id, 'test', 'sub_b', 'pro', 'active', now() FROM c)
		UPDATE apps SET client_id = (SELECT id FROM c) WHERE id = $1`, b.AppID)
	for _, app := range []struct {
		id   int64
		path string
	}{{e.App.AppID, "/a"}, {b.AppID, "/b"}} {
		cfg, _ := json.Marshal(map[string]any{"url": hooks.URL + app.path, "secret": "0123456789abcdef"})
		if _, err := e.Stack.Channels.CreateInstance(ctx, app.id, "webhook", channels.InstanceInput{Provider: "webhook", Name: "slow hook", Config: cfg}); err != nil {
			t.Fatal(err)
		}
	}
	rs := make([]string, 10)
	for i := range rs {
		rs[i] = fmt.Sprintf(`"u%d"`, i)
	}
	body := `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":[` + strings.Join(rs, ",") + `]}}`
	start := time.Now()
	sendNotification(t, e, body)
	res := e.Do("POST", "/v3/notifications", body, stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": b.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": b.APISecret})
	if res.Status != 202 {
		t.Fatalf("B's send: %d %s", res.Status, res.Body)
	}
	count := func(q string, args ...any) int {
		var n int
		if err := e.Stack.DB.Pool.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var bTook time.Duration
	held := 0
	e.Eventually(90*time.Second, "all 20 webhooks sent", func() bool {
		held = max(held, count(`SELECT count(*) FROM message_logs WHERE app_id = $1 AND status = 'queued'
			AND error LIKE 'app concurrency limit reached, retrying at %'`, e.App.AppID))
		if bTook == 0 && count(`SELECT count(*) FROM message_logs WHERE app_id = $1 AND channel = 'webhook' AND status = 'sent'`, b.AppID) == 10 {
			bTook = time.Since(start)
		}
		return count(`SELECT count(*) FROM message_logs WHERE app_id IN ($1, $2) AND channel = 'webhook' AND status = 'sent'`, e.App.AppID, b.AppID) == 20
	})
	aTook := time.Since(start)
	calls := hooks.Calls()
	if hooks.Peak("/a") > 2 {
		t.Errorf("app A had %d provider calls in flight; its plan allows 2", hooks.Peak("/a"))
	}
	if hooks.Peak("/b") <= 2 {
		t.Errorf("app B had at most %d calls in flight: held to A's limit, though its plan has none", hooks.Peak("/b"))
	}
	for who, n := range calls {
		if n != 1 {
			t.Errorf("%s got %d calls, want 1", who, n)
		}
	}
	if len(calls) != 20 {
		t.Errorf("%d recipients called, want 20", len(calls))
	}
	if n := count(`SELECT count(*) FROM message_logs WHERE app_id IN ($1, $2) AND status <> 'sent'`, e.App.AppID, b.AppID); n != 0 {
		t.Errorf("%d messages not sent", n)
	}
	t.Logf("A (2 calls at a time, peak %d, at most %d seen held for the timer): 10 webhooks of 300 ms in %s; B (no limit, peak %d): 10 in %s",
		hooks.Peak("/a"), held, aTook.Round(time.Millisecond), hooks.Peak("/b"), bTook.Round(time.Millisecond))
}

// TestPlanLimitsSendsInFlightPerApp: the free plan allows one send run in flight per app.
// Six sends of one app, accepted at once, all land: each run's last slice gives its lease
// back (a run that kept it would hold the next one for the lease's 15 minutes), and they
// went one run at a time.
func TestPlanLimitsSendsInFlightPerApp(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.RelayPackSize = 1
		c.Ops.Plans = config.Plans{{ID: config.FreePlan, Name: "Free", Currency: "usd", MaxSendsInFlight: 1}}
	}})
	ctx := context.Background()
	for i := range 6 {
		sendNotification(t, e, fmt.Sprintf(`{"notification":{"title":"N %d"},"sendTo":{"recipients":["bob"]}}`, i))
	}
	count := func(q string, args ...any) int {
		var n int
		if err := e.Stack.DB.Pool.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	most := 0
	e.Eventually(60*time.Second, "6 notifications in bob's inbox", func() bool {
		// Started and not finished: the runs in flight (at most one, the plan says).
		most = max(most, count(`SELECT count(DISTINCT workflow_id) FROM notification_requests WHERE app_id = $1 AND status = 'started'`, e.App.AppID))
		return count(`SELECT count(*) FROM notifications WHERE app_id = $1`, e.App.AppID) == 6
	})
	if most > 1 {
		t.Errorf("%d runs of the app in flight at once; its plan allows 1", most)
	}
	if n := count(`SELECT count(*) FROM notification_requests WHERE app_id = $1 AND status <> 'completed'`, e.App.AppID); n != 0 {
		t.Errorf("%d requests not completed", n)
	}
}
