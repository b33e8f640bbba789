package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// One app whose SMTP server accepts connections and never answers must not delay another
// app's in-app delivery, nor its own broadcast's in-app rows (issue 28). App A sends a
// 4,500-user in-app + email broadcast and 70 single emails (one workflow run each) through
// a hung SMTP server; app B's in-app sends must all land while A's server still hangs, and
// so must every in-app row of A's broadcast. Before the split, A's email activities held
// every one of the worker's 64 shared slots (B's sends waited for the stall to end) and
// the broadcast stopped resolving at 4,000 rows while its emails waited.
func TestHungSMTPOfOneAppDelaysNoInAppDelivery(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) { c.RelayPackSize = 1 }})
	ctx := context.Background()
	hung := smtptest.Start(t).Hang(t)
	cfg, _ := json.Marshal(map[string]any{"host": hung.Host, "port": hung.Port, "security": "none", "from": "noreply@herald.test"})
	if _, err := e.Stack.Channels.CreateInstance(ctx, e.App.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "hung smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	const audience = 4500
	a := e.App.AppID
	sql(t, e, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, 'everyone', 'Everyone')`, a)
	sql(t, e, `INSERT INTO users (app_id, identifier, profile)
		SELECT $1, 'user-' || g, jsonb_build_object('email', 'user-' || g || '@example.com') FROM generate_series(1, $2::int) g`, a, audience)
	sql(t, e, `INSERT INTO topic_subscriptions (topic_id, user_id, channels)
		SELECT t.id, u.id, '{}'::text[] FROM topics t JOIN users u ON u.app_id = t.app_id WHERE t.app_id = $1`, a)

	broadcast := sendNotification(t, e, `{"notification":{"title":"Sale"},"sendTo":{"topics":["everyone"]}}`)
	for i := range 70 {
		sendNotification(t, e, fmt.Sprintf(`{"notification":{"title":"Code %d"},"sendTo":{"recipients":[{"identifier":"a-%d","email":"a-%d@example.com"}]},"override":{"channels":["email"]}}`, i, i, i))
	}
	e.Eventually(60*time.Second, "A's email reaching the hung server", func() bool { return hung.Held() > 0 })

	b := e.NewApp("app b")
	bHeaders := stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": b.APIKey, e.Cfg.HeaderPrefix + "API-SECRET": b.APISecret}
	start := time.Now()
	for i := range 5 {
		res := e.Do("POST", "/v3/notifications", fmt.Sprintf(`{"notification":{"title":"B %d"},"sendTo":{"recipients":["bob"]}}`, i), bHeaders)
		if res.Status != 202 {
			t.Fatalf("B's send: %d %s", res.Status, res.Body)
		}
	}
	count := func(q string, args ...any) int {
		var n int
		if err := e.Stack.DB.Pool.QueryRow(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	e.Eventually(60*time.Second, "B's 5 in-app notifications", func() bool {
		return count(`SELECT count(*) FROM notifications WHERE app_id = $1`, b.AppID) == 5
	})
	bTook := time.Since(start)
	if hung.Held() == 0 {
		t.Fatal("A's SMTP server stopped hanging before B's notifications landed: the test proves nothing")
	}
	e.Eventually(60*time.Second, "every in-app row of A's broadcast", func() bool {
		return count(`SELECT count(*) FROM notifications WHERE request_id = $1`, broadcast) == audience
	})
	if hung.Held() == 0 {
		t.Fatal("A's SMTP server stopped hanging before the broadcast's in-app rows landed")
	}
	sent := count(`SELECT count(*) FROM message_logs WHERE app_id = $1 AND channel = 'email' AND status <> 'queued'`, a)
	t.Logf("with A's SMTP hung (%d connections held, %d of A's emails settled): B's 5 sends landed in %s, A's %d in-app rows in %s",
		hung.Held(), sent, bTook.Round(time.Millisecond), audience, time.Since(start).Round(time.Millisecond))
}
