package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// FanOutResult is scenario 7: one send to a topic over three channels at once (in-app,
// email and webhook), each to its real sink: the inbox table, a local SMTP server and a
// local HTTP server.
type FanOutResult struct {
	Members int
	// InApp, Email and Webhook are from accept to the last delivery on that channel.
	InApp, Email, Webhook time.Duration
	// Received counts what each channel got (duplicates included for email and webhook).
	InAppRows, Emails, Calls int64
	// WorkerRSS is the herald process's peak RSS during the send.
	WorkerRSS int64
	// HistoryEvents is the longest history of the runs that carried the send.
	HistoryEvents, HistoryBytes int64
	Runs                        int
}

// FanOut sends one notification to a topic of members users over in-app, email and webhook
// on a stack started with ExternalEnv, and waits for every delivery on every channel.
func FanOut(ctx context.Context, t *Target, members, pid int) (FanOutResult, error) {
	res := FanOutResult{Members: members}
	mail, smtpAddr, stopSMTP, err := startSMTPSink()
	if err != nil {
		return res, err
	}
	defer stopSMTP()
	hook, hookURL, stopHTTP, err := startHTTPSink()
	if err != nil {
		return res, err
	}
	defer stopHTTP()
	pool, err := pgxpool.New(ctx, t.DatabaseURL)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	var appID int64
	if err := pool.QueryRow(ctx, "SELECT id FROM apps WHERE api_key = $1", t.APIKey).Scan(&appID); err != nil {
		return res, err
	}
	host, port, _ := net.SplitHostPort(smtpAddr)
	var p int
	fmt.Sscan(port, &p)
	email, _ := json.Marshal(map[string]any{"host": host, "port": p, "security": "none", "from": "bench@herald.test", "maxConnections": 16})
	webhook, _ := json.Marshal(map[string]any{"url": hookURL, "secret": "bench-signing-secret-0123456789"})
	for _, in := range []struct {
		channel, provider string
		config            []byte
	}{{"email", "smtp", email}, {"webhook", "webhook", webhook}} {
		if _, err := pool.Exec(ctx, `INSERT INTO provider_instances (app_id, channel, provider, name, config, enabled, priority) VALUES ($1, $2, $3, 'bench-fanout', $4, true, 0)`,
			appID, in.channel, in.provider, in.config); err != nil {
			return res, err
		}
	}
	topic := fmt.Sprintf("fanout-%d", members)
	if _, err := pool.Exec(ctx, `INSERT INTO users (app_id, identifier, profile) SELECT $1, $3 || '-' || g, jsonb_build_object('email', $3 || '-' || g || '@example.com')
		FROM generate_series(1, $2) g ON CONFLICT DO NOTHING`, appID, members, topic); err != nil {
		return res, err
	}
	var topicID int64
	if err := pool.QueryRow(ctx, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, $2, $2) RETURNING id`, appID, topic).Scan(&topicID); err != nil {
		return res, err
	}
	if _, err := pool.Exec(ctx, `INSERT INTO topic_subscriptions (topic_id, user_id) SELECT $1, id FROM users WHERE app_id = $2 AND identifier LIKE $3 || '-%'`, topicID, appID, topic); err != nil {
		return res, err
	}
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) users, topic_subscriptions"); err != nil {
		return res, err
	}

	body := fmt.Appendf(nil, `{"notification":{"title":"Fan-out","message":"To every member, on every channel."},"sendTo":{"topics":[%q]},"override":{"channels":["inApp","email","webhook"]}}`, topic)
	start := time.Now()
	status, out, err := t.Do(ctx, "POST", "/v3/notifications", body, t.AppHeaders())
	if err := expect(status, out, err, 202); err != nil {
		return res, err
	}
	var accepted struct{ RequestID string }
	_ = json.Unmarshal(out, &accepted)
	done := make(chan struct{})
	go func() {
		for {
			res.WorkerRSS = max(res.WorkerRSS, rss(pid))
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	defer close(done)

	// In-app: the inbox rows of the send, polled; the last one's creation time is when it
	// was delivered (the inbox insert stamps it).
	inapp := make(chan error, 1)
	go func() {
		deadline := time.Now().Add(30 * time.Minute)
		for {
			var n int64
			var last time.Time
			err := pool.QueryRow(ctx, `SELECT count(*), COALESCE(max(created_at), now()) FROM notifications WHERE app_id = $1 AND request_id = $2`,
				appID, accepted.RequestID).Scan(&n, &last)
			if err != nil {
				inapp <- err
				return
			}
			if n >= int64(members) {
				res.InAppRows, res.InApp = n, last.Sub(start)
				inapp <- nil
				return
			}
			if time.Now().After(deadline) {
				inapp <- fmt.Errorf("%d of %d inbox rows after 30 minutes", n, members)
				return
			}
			select {
			case <-ctx.Done():
				inapp <- ctx.Err()
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	lastMail, err := mail.waitFor(ctx, int64(members), 30*time.Minute)
	if err != nil {
		return res, fmt.Errorf("email: %w", err)
	}
	lastCall, err := hook.waitFor(ctx, int64(members), 30*time.Minute)
	if err != nil {
		return res, fmt.Errorf("webhook: %w", err)
	}
	if err := <-inapp; err != nil {
		return res, fmt.Errorf("in-app: %w", err)
	}
	res.Email, res.Webhook = lastMail.Sub(start), lastCall.Sub(start)
	time.Sleep(time.Second) // late duplicates, if any
	res.Emails, res.Calls = mail.n.Load(), hook.n.Load()
	res.HistoryEvents, res.HistoryBytes, res.Runs = historySizes(ctx, t.TemporalAddr, "send/"+accepted.RequestID)
	return res, nil
}

func (f *FanOutResult) write(w io.Writer) {
	fmt.Fprintf(w, "## 7. Fan-out: one send to a topic of %d users over in-app + email + webhook\n\n", f.Members)
	fmt.Fprintf(w, "| measure | value |\n|---|---|\n")
	fmt.Fprintf(w, "| accepted → last in-app row | %.1f s (%d rows) |\n", f.InApp.Seconds(), f.InAppRows)
	fmt.Fprintf(w, "| accepted → last email at the SMTP server | %.1f s (%d received) |\n", f.Email.Seconds(), f.Emails)
	fmt.Fprintf(w, "| accepted → last webhook call | %.1f s (%d received) |\n", f.Webhook.Seconds(), f.Calls)
	last := max(f.InApp, f.Email, f.Webhook)
	fmt.Fprintf(w, "| time to the last delivery on any channel | %.1f s (%.0f deliveries/s) |\n", last.Seconds(), float64(3*f.Members)/max(last.Seconds(), 0.001))
	if f.WorkerRSS > 0 {
		fmt.Fprintf(w, "| herald process (API + worker + relay) peak RSS | %.0f MiB |\n", float64(f.WorkerRSS)/(1<<20))
	}
	if f.HistoryEvents > 0 {
		fmt.Fprintf(w, "| longest history of the runs that carried it (of %d) | %d events, %.0f KiB |\n", f.Runs, f.HistoryEvents, float64(f.HistoryBytes)/1024)
	}
	fmt.Fprintln(w)
}
