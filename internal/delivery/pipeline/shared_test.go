package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/providers/smtp"
	"github.com/heraldhq/herald/internal/providers/webhook"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/workflows/send"
)

// Issue 28, item 3: two worker processes (two Delivery values with breakers and
// connection pools of their own, one database) send through an SMTP server that accepts
// connections and never answers. The first trips the instance's breaker; the second then
// holds its messages without connecting; when the cool-down ends one probe goes out, its
// answer closes the breaker for both, and every message is delivered exactly once.
func TestABreakerTrippedByOneWorkerHoldsTheOthers(t *testing.T) {
	d, appID, w1, _ := setup(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	w2 := &Service{DB: d, Publisher: &recordingPublisher{}, Log: slog.New(slog.DiscardHandler),
		Channels:  channels.NewService(d, box, providers.NewCatalogue(webhook.Kind(), smtp.Kind()), providers.Deps{Guard: testGuard, HTTP: http.DefaultClient}),
		Templates: templates.NewService(d)}
	mail := smtptest.Start(t)
	hung := mail.Hang(t)
	cfg, _ := json.Marshal(map[string]any{"host": hung.Host, "port": hung.Port, "security": "none", "from": "noreply@herald.test", "connectTimeoutSeconds": 0.2})
	inst, err := w1.Channels.CreateInstance(context.Background(), appID, "email", channels.InstanceInput{Provider: "smtp", Name: "hung", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	req := accept(t, d, appID, emailSend(10))
	_, jobs := drain(t, w1, []send.Cursor{{RequestID: req}})
	if len(jobs) != 10 {
		t.Fatalf("%d jobs, want 10", len(jobs))
	}
	batch := func(w *Service, jobs []send.Job) send.SendBatchResult {
		t.Helper()
		res, err := w.SendMessages(context.Background(), send.SendBatchInput{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	held := func(res send.SendBatchResult) int {
		n := 0
		for _, r := range res.Retries {
			if r.Hold {
				n++
			}
		}
		return n
	}

	// Worker 1: six calls, none answered: its breaker opens, and so does the shared one.
	first := batch(w1, jobs[:6])
	if len(first.Retries) != 6 || first.Sent != 0 {
		t.Fatalf("worker 1 against the hung server: %+v", first)
	}
	var rows int
	if err := d.Pool.QueryRow(context.Background(), `SELECT count(*) FROM provider_breakers WHERE instance_id = $1 AND open_until > now()`, inst.ID).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("shared breaker rows %d (%v), want the instance open", rows, err)
	}
	accepted := hung.Accepted()

	// Worker 2 has never called the instance: it holds its four without connecting.
	second := batch(w2, jobs[6:])
	if held(second) != 4 || hung.Accepted() != accepted {
		t.Fatalf("worker 2 while worker 1's breaker is open: %+v, %d connections (had %d); want all 4 held, none made", second, hung.Accepted(), accepted)
	}
	var note string
	if err := d.Pool.QueryRow(context.Background(), `SELECT error FROM message_logs WHERE id = $1`, jobs[6].LogID).Scan(&note); err != nil || !strings.Contains(note, "provider unavailable, retrying at") {
		t.Errorf("worker 2's held message log: %q (%v)", note, err)
	}

	// The cool-down ends and the server answers: one worker probes, the answer closes the
	// breaker for both.
	hung.Answer()
	exec(t, d, `UPDATE provider_breakers SET open_until = now() - interval '1 second' WHERE instance_id = $1`, inst.ID)
	time.Sleep(breakerCacheTTL + 100*time.Millisecond) // both workers read the row again
	pending := jobs[6:]
	for round := 0; len(pending) > 0; round++ {
		if round > 20 {
			t.Fatalf("worker 2 still holds %d messages", len(pending))
		}
		res := batch(w2, pending)
		var next []send.Job
		for _, r := range res.Retries {
			for _, j := range pending {
				if j.LogID == r.LogID {
					next = append(next, j)
				}
			}
		}
		pending = next
	}
	if err := d.Pool.QueryRow(context.Background(), `SELECT count(*) FROM provider_breakers WHERE instance_id = $1`, inst.ID).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("shared breaker rows after the probe was answered: %d (%v)", rows, err)
	}
	// Worker 1's own breaker was still open; the shared one closed, so it sends again.
	time.Sleep(breakerCacheTTL + 100*time.Millisecond)
	if res := batch(w1, jobs[:6]); res.Sent != 6 {
		t.Fatalf("worker 1 after the shared breaker closed: %+v", res)
	}
	msgs := mail.Messages()
	seen := map[string]int{}
	for _, m := range msgs {
		for _, to := range m.To {
			seen[to]++
		}
	}
	for i := range 10 {
		if n := seen[fmt.Sprintf("u%d@example.com", i)]; n != 1 {
			t.Errorf("u%d received %d messages, want 1", i, n)
		}
	}
}

// The calls of a batch of emails find the cached shared breaker stale together: one reads
// the instance's row and the others wait for its read, so twenty calls take one
// connection, not twenty. The row is held locked while they ask; each must return what the
// one read found.
func TestOneCallReadsAStaleSharedBreaker(t *testing.T) {
	d, appID, w, _ := setup(t)
	ctx := context.Background()
	inst := webhookInstance(t, w, appID, "hook", "https://hooks.example.com/in")
	// Connections of their own, outside the service's pool (which the reads may fill).
	side := func() *pgx.Conn {
		t.Helper()
		c, err := pgx.ConnectConfig(ctx, d.Pool.Config().ConnConfig.Copy())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close(context.Background()) })
		return c
	}
	watch := side()
	lock, err := side().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lock.Rollback(ctx) }()
	if _, err := lock.Exec(ctx, `LOCK TABLE provider_breakers IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Exec(ctx, `INSERT INTO provider_breakers (instance_id, open_until, cooldown_ms) VALUES ($1, now() + interval '1 minute', 15000)`, inst.ID); err != nil {
		t.Fatal(err)
	}
	b := w.breakerOf(inst.ID)
	states := make([]sharedBreaker, 20)
	var wg sync.WaitGroup
	for i := range states {
		wg.Go(func() { states[i] = w.sharedState(ctx, inst.ID, b, time.Now()) })
	}
	waiting := func() (n int) {
		t.Helper()
		if err := watch.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%GetProviderBreaker%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for deadline := time.Now().Add(5 * time.Second); waiting() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no call read the shared breaker's row within 5 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // time for the others to ask, had they read too
	if n := waiting(); n != 1 {
		t.Errorf("%d reads of the row waiting at once, want 1", n)
	}
	if err := lock.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, s := range states {
		if !s.open || s.cooldown != 15*time.Second {
			t.Errorf("call %d: %+v, want the row the read found (open, 15 s)", i, s)
		}
	}
}

// emailSend is a send request's body: an email to each of n inline recipients, u0…u<n-1>
// at example.com.
func emailSend(n int) string {
	recipients := make([]string, n)
	for i := range recipients {
		recipients[i] = fmt.Sprintf(`{"identifier":"u%d","email":"u%d@example.com"}`, i, i)
	}
	return `{"notification":{"title":"Hi"},"override":{"channels":["email"]},"sendTo":{"recipients":[` + strings.Join(recipients, ",") + `]}}`
}
