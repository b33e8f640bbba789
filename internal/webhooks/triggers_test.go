package webhooks

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// The triggers of migration 00230 turn each kind of change into its events, for the
// subscribed endpoints of the same app only, through the filters, and nothing without an
// endpoint.
func TestTriggersRecordEveryEventSource(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	one := func(q string, args ...any) int64 {
		t.Helper()
		var id int64
		if err := d.Pool.QueryRow(ctx, q, args...).Scan(&id); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return id
	}
	app := func(name string) int64 {
		return one(`INSERT INTO apps (name, api_key, api_secret_hash, api_secret_sealed) VALUES ($1, $1, '\x00', '\x00') RETURNING id`, name)
	}
	a, b := app("a"), app("b")
	user := one(`INSERT INTO users (app_id, identifier) VALUES ($1, 'ada') RETURNING id`, a)
	userB := one(`INSERT INTO users (app_id, identifier) VALUES ($1, 'bob') RETURNING id`, b)
	cat := one(`INSERT INTO categories (app_id, identifier, name) VALUES ($1, 'billing', 'Billing') RETURNING id`, a)
	flow := one(`INSERT INTO flows (app_id, identifier, name, draft) VALUES ($1, 'onboarding', 'Onboarding', '{}') RETURNING id`, a)
	notif := one(`INSERT INTO notifications (app_id, user_id, request_id, title, category_id) VALUES ($1, $2, gen_random_uuid(), 't', $3) RETURNING id`, a, user, cat)

	// Without endpoints nothing is recorded.
	exec(`UPDATE notifications SET read_at = now() WHERE id = $1`, notif)
	exec(`UPDATE notifications SET read_at = NULL WHERE id = $1`, notif)
	count := func() int64 { return one(`SELECT count(*) FROM webhook_deliveries`) }
	if n := count(); n != 0 {
		t.Fatalf("%d deliveries without an endpoint", n)
	}

	endpoint := func(appID int64, types []string, channels []string) int64 {
		return one(`INSERT INTO webhook_endpoints (app_id, url, event_types, channels, secret) VALUES ($1, 'https://h.example', $2, $3, '\x00') RETURNING id`, appID, types, channels)
	}
	all := endpoint(a, EventTypes, []string{})
	emailOnly := endpoint(a, EventTypes, []string{"email"})
	endpoint(b, EventTypes, []string{}) // another app's: hears only b
	disabled := endpoint(a, EventTypes, []string{})
	exec(`UPDATE webhook_endpoints SET enabled = false WHERE id = $1`, disabled)

	// Inbox: seen, read, clicked, archived, deleted (one statement may make several).
	exec(`UPDATE notifications SET seen_at = now(), read_at = now() WHERE id = $1`, notif)
	exec(`UPDATE notifications SET clicked_at = now(), state = 'archived' WHERE id = $1`, notif)
	exec(`UPDATE notifications SET deleted_at = now() WHERE id = $1`, notif)
	// Messages: written failed, moved to sent then delivered, opened, clicked, bounced.
	req := "11111111-1111-1111-1111-111111111111"
	exec(`INSERT INTO message_logs (app_id, request_id, user_id, user_identifier, channel, status, error, idempotency_key)
		VALUES ($1, $2, $3, 'ada', 'sms', 'failed', 'no number', 'k1'), ($1, $2, $3, 'ada', 'email', 'queued', NULL, 'k2')`, a, req, user)
	exec(`UPDATE message_logs SET provider = 'smtp' WHERE channel = 'email'`) // no status change: no event
	for _, st := range []string{"sent", "delivered", "opened", "clicked", "bounced"} {
		exec(`UPDATE message_logs SET status = $1 WHERE channel = 'email'`, st)
	}
	// Flow runs.
	exec(`INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id) VALUES ($1, $2, 'onboarding', 'ada', 'w1'), ($1, $2, 'onboarding', 'ada', 'w2')`, a, req)
	exec(`UPDATE flow_runs SET status = 'completed', finished_at = now() WHERE workflow_id = 'w1'`)
	exec(`UPDATE flow_runs SET status = 'failed', finished_at = now() WHERE workflow_id = 'w2'`)
	// Preferences: category × channel, a whole channel, a workflow; set again unchanged: none.
	exec(`INSERT INTO preferences (app_id, user_id, category_id, channel, enabled) VALUES ($1, $2, $3, 'email', false)`, a, user, cat)
	exec(`UPDATE preferences SET enabled = false WHERE user_id = $1`, user)
	exec(`INSERT INTO channel_preferences (app_id, user_id, channel, enabled) VALUES ($1, $2, 'sms', false)`, a, user)
	exec(`INSERT INTO flow_preferences (app_id, user_id, flow_id, channel, enabled) VALUES ($1, $2, $3, '', false)`, a, user, flow)
	// user.unsubscribed, as the unsubscribe service writes it.
	q := dbsqlc.New(d.Pool)
	if err := q.EnqueueUnsubscribedEvent(ctx, dbsqlc.EnqueueUnsubscribedEventParams{AppID: a, UserID: user, CategoryID: cat, Channel: "email"}); err != nil {
		t.Fatal(err)
	}
	// App b's own change reaches b's endpoint only.
	exec(`INSERT INTO channel_preferences (app_id, user_id, channel, enabled) VALUES ($1, $2, 'sms', true)`, b, userB)

	types := func(endpointID int64) []string {
		rows, err := d.Pool.Query(ctx, `SELECT event_type FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id`, endpointID)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for rows.Next() {
			var s string
			_ = rows.Scan(&s)
			out = append(out, s)
		}
		return out
	}
	want := []string{
		"notification.seen", "notification.read", "notification.clicked", "notification.archived", "notification.deleted",
		"message.failed", "message.sent", "message.delivered", "message.opened", "message.clicked", "message.bounced",
		"flow_run.completed", "flow_run.failed",
		"preference.changed", "preference.changed", "preference.changed", "user.unsubscribed",
	}
	if got := types(all); !slices.Equal(got, want) {
		t.Errorf("events of the unfiltered endpoint\n got %v\nwant %v", got, want)
	}
	// The email filter drops in-app and SMS events, keeps those without a channel.
	wantEmail := []string{"message.sent", "message.delivered", "message.opened", "message.clicked", "message.bounced",
		"flow_run.completed", "flow_run.failed", "preference.changed", "preference.changed", "user.unsubscribed"}
	if got := types(emailOnly); !slices.Equal(got, wantEmail) {
		t.Errorf("events of the email-only endpoint\n got %v\nwant %v", got, wantEmail)
	}
	if got := types(disabled); len(got) != 0 {
		t.Errorf("a disabled endpoint got %v", got)
	}
	if n := one(`SELECT count(*) FROM webhook_deliveries WHERE app_id = $1`, b); n != 1 {
		t.Errorf("app b has %d deliveries, want its one preference change", n)
	}
	// Payloads carry ids and identifiers.
	var data json.RawMessage
	if err := d.Pool.QueryRow(ctx, `SELECT data FROM webhook_deliveries WHERE endpoint_id = $1 AND event_type = 'message.bounced'`, all).Scan(&data); err != nil {
		t.Fatal(err)
	}
	var msg map[string]any
	_ = json.Unmarshal(data, &msg)
	if msg["requestId"] != req || msg["userIdentifier"] != "ada" || msg["channel"] != "email" || msg["provider"] != "smtp" || msg["messageId"] == nil {
		t.Errorf("message.bounced data %s", data)
	}
	if err := d.Pool.QueryRow(ctx, `SELECT data FROM webhook_deliveries WHERE endpoint_id = $1 AND event_type = 'user.unsubscribed'`, all).Scan(&data); err != nil ||
		string(data) != `{"via": "link", "channel": "email", "category": "billing", "userIdentifier": "ada"}` {
		t.Errorf("user.unsubscribed data %s %v", data, err)
	}
	var ids []string
	rows, _ := d.Pool.Query(ctx, `SELECT message_id FROM webhook_deliveries`)
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		ids = append(ids, s)
	}
	slices.Sort(ids)
	if len(slices.Compact(ids)) != int(count()) || ids[0][:4] != "msg_" {
		t.Errorf("webhook-ids not unique or malformed: %v", ids[:3])
	}
}
