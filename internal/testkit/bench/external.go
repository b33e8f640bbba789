package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/smtp"
	"sync"
	"sync/atomic"
	"time"

	gosmtp "github.com/emersion/go-smtp"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ExternalResult is the Email or Webhook scenario: single-recipient sends over one external
// channel to a local server that accepts and discards, the same number of messages from a
// plain client to that server as the reference, and one send to a topic.
type ExternalResult struct {
	// Channel is "email" or "webhook".
	Channel     string
	Sends       int
	Concurrency int
	// Accepted is how long the API took to accept every send; Last is from the first send
	// to the last message at the server.
	Accepted, Last time.Duration
	// Received counts the messages the server got (duplicates included).
	Received int64
	// Latency is, for email, from the start of each send's POST to the end of its message's
	// DATA at the server, over the single-recipient sends.
	Latency Stats
	// RefFresh is the plain client's rate opening a connection per message; RefReuse its
	// rate over Concurrency reused connections.
	RefFresh, RefReuse float64
	// The broadcast: one send to a topic of Members users, from accept to the last
	// message at the server, the herald process's peak RSS meanwhile, the longest history
	// of the runs that carried it (events and bytes), and how many runs.
	Members                     int
	BroadcastTook               time.Duration
	WorkerRSS                   int64
	HistoryEvents, HistoryBytes int64
	Runs                        int
}

// PerSec is the sustained rate through Herald: messages at the server per second from the
// first send to the last message.
func (r *ExternalResult) PerSec() float64 { return float64(r.Sends) / max(r.Last.Seconds(), 0.001) }

// sink is a local server of the channel that counts what it receives.
type sink struct {
	n    atomic.Int64
	last atomic.Int64 // UnixNano of the last message
	// arrived holds when each SMTP recipient's message ended its DATA (first arrival).
	arrived sync.Map // recipient address → time.Time
	// onMessage, when set before the sink serves, sees every message's arrival.
	onMessage func(time.Time)
}

func (s *sink) got() {
	now := time.Now()
	s.n.Add(1)
	s.last.Store(now.UnixNano())
	if s.onMessage != nil {
		s.onMessage(now)
	}
}

// waitFor waits until the sink has n messages (or limit passes) and returns when the last
// arrived.
func (s *sink) waitFor(ctx context.Context, n int64, limit time.Duration) (time.Time, error) {
	deadline := time.Now().Add(limit)
	for s.n.Load() < n {
		if time.Now().After(deadline) {
			return time.Time{}, fmt.Errorf("the server received %d of %d messages after %s", s.n.Load(), n, limit)
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return time.Unix(0, s.last.Load()), nil
}

// SMTP sink: go-smtp with a backend that reads and discards each message.
type smtpBackend struct{ s *sink }

func (b smtpBackend) NewSession(*gosmtp.Conn) (gosmtp.Session, error) {
	return &smtpSession{s: b.s}, nil
}

// smtpSession reads and discards each message and records when its recipients' DATA ended.
type smtpSession struct {
	s    *sink
	rcpt []string
}

func (*smtpSession) Mail(string, *gosmtp.MailOptions) error { return nil }
func (x *smtpSession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	x.rcpt = append(x.rcpt, to)
	return nil
}
func (x *smtpSession) Data(r io.Reader) error {
	_, err := io.Copy(io.Discard, r)
	now := time.Now()
	for _, to := range x.rcpt {
		x.s.arrived.LoadOrStore(to, now)
	}
	x.s.got()
	return err
}
func (x *smtpSession) Reset()      { x.rcpt = x.rcpt[:0] }
func (*smtpSession) Logout() error { return nil }

func startSMTPSink() (*sink, string, func(), error) {
	s := &sink{}
	srv := gosmtp.NewServer(smtpBackend{s})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.MaxRecipients = 10
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	go func() { _ = srv.Serve(ln) }()
	return s, ln.Addr().String(), func() { _ = srv.Close() }, nil
}

func startHTTPSink() (*sink, string, func(), error) {
	s := &sink{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		s.got()
	})}
	go func() { _ = srv.Serve(ln) }()
	return s, "http://" + ln.Addr().String() + "/hook", func() { _ = srv.Close() }, nil
}

// ExternalEnv lets the stack reach the scenario's local servers (the outbound guard
// refuses loopback otherwise).
var ExternalEnv = []string{"HERALD_PRIVATE_HOSTS=127.0.0.1,localhost"}

// External runs the scenario for channel ("email" or "webhook") on a stack started with
// HERALD_PRIVATE_HOSTS allowing 127.0.0.1 (see ExternalEnv).
func External(ctx context.Context, t *Target, channel string, sends, concurrency, members, pid int) (ExternalResult, error) {
	res := ExternalResult{Channel: channel, Sends: sends, Concurrency: concurrency, Members: members}
	var (
		s      *sink
		addr   string
		stop   func()
		err    error
		config map[string]any
	)
	if channel == "email" {
		s, addr, stop, err = startSMTPSink()
		host, port, _ := net.SplitHostPort(addr)
		var p int
		fmt.Sscan(port, &p)
		// As many connections as the reference's clients.
		config = map[string]any{"host": host, "port": p, "security": "none", "from": "bench@herald.test", "maxConnections": concurrency}
	} else {
		s, addr, stop, err = startHTTPSink()
		config = map[string]any{"url": addr, "secret": "bench-signing-secret-0123456789"}
	}
	if err != nil {
		return res, err
	}
	defer stop()
	pool, err := pgxpool.New(ctx, t.DatabaseURL)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	var appID int64
	if err := pool.QueryRow(ctx, "SELECT id FROM apps WHERE api_key = $1", t.APIKey).Scan(&appID); err != nil {
		return res, err
	}
	raw, _ := json.Marshal(config)
	provider := "smtp"
	if channel == "webhook" {
		provider = "webhook"
	}
	if _, err := pool.Exec(ctx, `INSERT INTO provider_instances (app_id, channel, provider, name, config, enabled, priority) VALUES ($1, $2, $3, 'bench', $4, true, 0)`,
		appID, channel, provider, raw); err != nil {
		return res, err
	}

	// Sends: every client takes every concurrency-th send.
	headers := t.AppHeaders()
	posted := make([]time.Time, sends)
	start := time.Now()
	var wg sync.WaitGroup
	var firstErr atomic.Value
	for w := range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < sends; i += concurrency {
				body := fmt.Appendf(nil, `{"notification":{"title":"Bench %d","message":"A message for the benchmark."},"override":{"channels":[%q]},
					"sendTo":{"recipients":[{"identifier":"ext-%d","email":"ext-%d@example.com"}]}}`, i, channel, i, i)
				posted[i] = time.Now()
				status, out, err := t.Do(ctx, "POST", "/v3/notifications", body, headers)
				if err := expect(status, out, err, 202); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return res, err
	}
	res.Accepted = time.Since(start)
	last, err := s.waitFor(ctx, int64(sends), 10*time.Minute)
	if err != nil {
		return res, err
	}
	res.Last = last.Sub(start)
	time.Sleep(time.Second) // late duplicates, if any
	res.Received = s.n.Load()
	if channel == "email" {
		var rec recorder
		lat := make([]time.Duration, 0, sends)
		for i := range sends {
			if at, ok := s.arrived.Load(fmt.Sprintf("ext-%d@example.com", i)); ok {
				lat = append(lat, at.(time.Time).Sub(posted[i]))
			}
		}
		rec.add(lat)
		res.Latency = rec.stats(res.Last)
	}

	// References on the same server, at the same concurrency.
	if channel == "email" {
		res.RefFresh, res.RefReuse = smtpReference(ctx, addr, sends, concurrency)
	} else {
		res.RefFresh, res.RefReuse = httpReference(ctx, addr, sends, concurrency)
	}

	if members > 0 {
		if err := externalBroadcast(ctx, t, pool, appID, channel, s, &res, pid); err != nil {
			return res, fmt.Errorf("broadcast: %w", err)
		}
	}
	return res, nil
}

// externalBroadcast sends one message to a topic of res.Members users with email
// addresses and waits for the last at the server.
func externalBroadcast(ctx context.Context, t *Target, pool *pgxpool.Pool, appID int64, channel string, s *sink, res *ExternalResult, pid int) error {
	topic := fmt.Sprintf("ext-%s-%d", channel, res.Members)
	if _, err := pool.Exec(ctx, `INSERT INTO users (app_id, identifier, profile) SELECT $1, $3 || '-' || g, jsonb_build_object('email', $3 || '-' || g || '@example.com')
		FROM generate_series(1, $2) g ON CONFLICT DO NOTHING`, appID, res.Members, topic); err != nil {
		return err
	}
	var topicID int64
	if err := pool.QueryRow(ctx, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, $2, $2) RETURNING id`, appID, topic).Scan(&topicID); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `INSERT INTO topic_subscriptions (topic_id, user_id) SELECT $1, id FROM users WHERE app_id = $2 AND identifier LIKE $3 || '-%'`, topicID, appID, topic); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) users, topic_subscriptions"); err != nil {
		return err
	}
	before := s.n.Load()
	body := fmt.Appendf(nil, `{"notification":{"title":"Broadcast","message":"To every member."},"sendTo":{"topics":[%q]},"override":{"channels":[%q]}}`, topic, channel)
	start := time.Now()
	status, out, err := t.Do(ctx, "POST", "/v3/notifications", body, t.AppHeaders())
	if err := expect(status, out, err, 202); err != nil {
		return err
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
	last, err := s.waitFor(ctx, before+int64(res.Members), 30*time.Minute)
	close(done)
	if err != nil {
		return err
	}
	res.BroadcastTook = last.Sub(start)
	res.HistoryEvents, res.HistoryBytes, res.Runs = historySizes(ctx, t.TemporalAddr, "send/"+accepted.RequestID)
	return nil
}

// benchMessage is the reference's email: about the size of the sends' messages.
var benchMessage = []byte("From: bench@herald.test\r\nTo: <ref@example.com>\r\nSubject: Bench\r\nMessage-ID: <ref@herald.test>\r\n" +
	"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\nA message for the benchmark.\r\n")

// smtpReference sends n messages with net/smtp from concurrency clients: first opening a
// connection per message, then over one connection per client.
func smtpReference(ctx context.Context, addr string, n, concurrency int) (fresh, reuse float64) {
	send := func(c *smtp.Client) error {
		if err := c.Mail("bench@herald.test"); err != nil {
			return err
		}
		if err := c.Rcpt("ref@example.com"); err != nil {
			return err
		}
		w, err := c.Data()
		if err != nil {
			return err
		}
		if _, err := w.Write(benchMessage); err != nil {
			return err
		}
		return w.Close()
	}
	dial := func() (*smtp.Client, error) {
		c, err := smtp.Dial(addr)
		if err != nil {
			return nil, err
		}
		if err := c.Hello("bench"); err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
	fresh = spread(ctx, n, concurrency, func(next func() bool) {
		for next() {
			c, err := dial()
			if err != nil {
				continue
			}
			_ = send(c)
			_ = c.Quit()
		}
	})
	reuse = spread(ctx, n, concurrency, func(next func() bool) {
		c, err := dial()
		if err != nil {
			return
		}
		defer c.Quit()
		for next() {
			_ = send(c)
		}
	})
	return fresh, reuse
}

// httpReference posts n small JSON bodies from concurrency clients, without keep-alive and
// with it.
func httpReference(ctx context.Context, url string, n, concurrency int) (fresh, reuse float64) {
	body := []byte(`{"id":"msg_ref","recipient":{"identifier":"ref"},"title":"Bench","message":"A message for the benchmark."}`)
	run := func(c *http.Client) float64 {
		return spread(ctx, n, concurrency, func(next func() bool) {
			for next() {
				res, err := c.Post(url, "application/json", bytes.NewReader(body))
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
			}
		})
	}
	fresh = run(&http.Client{Transport: &http.Transport{DisableKeepAlives: true}})
	reuse = run(&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}})
	return fresh, reuse
}

// spread runs n operations over concurrency workers and returns operations per second.
// Each worker calls next() before an operation; it returns false when all are taken.
func spread(ctx context.Context, n, concurrency int, worker func(next func() bool)) float64 {
	var taken atomic.Int64
	next := func() bool { return ctx.Err() == nil && taken.Add(1) <= int64(n) }
	start := time.Now()
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(next)
		}()
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds()
}

func (r *ExternalResult) write(w io.Writer, section int) {
	name, ref, server := "Email", "plain SMTP client (net/smtp)", "a local SMTP server that accepts and discards"
	freshWord, reuseWord := "a connection per message", fmt.Sprintf("%d reused connections", r.Concurrency)
	if r.Channel == "webhook" {
		name, ref, server = "Webhook", "plain HTTP client (net/http)", "a local HTTP server that answers 200"
		freshWord, reuseWord = "without keep-alive", fmt.Sprintf("keep-alive, %d connections", r.Concurrency)
	}
	rate := r.PerSec()
	fmt.Fprintf(w, "## %d. %s: %d single-recipient sends (`override.channels: [%q]`), %d clients, to %s\n\n", section, name, r.Sends, r.Channel, r.Concurrency, server)
	fmt.Fprintf(w, "| measure | value | target |\n|---|---|---|\n")
	ratio := rate / max(r.RefFresh, 1)
	target := "—"
	if r.Channel == "email" {
		target = fmt.Sprintf("≥ 500 and ≥ 0.5 × reference (per connection) — %s", verdict(rate >= 500 && ratio >= 0.5))
	}
	fmt.Fprintf(w, "| messages/s through Herald (first send → last message at the server) | %.0f | %s |\n", rate, target)
	fmt.Fprintf(w, "| all sends accepted after | %.1f s | |\n", r.Accepted.Seconds())
	fmt.Fprintf(w, "| last message at the server after | %.1f s | |\n", r.Last.Seconds())
	fmt.Fprintf(w, "| messages the server received (duplicates included) | %d | = %d |\n", r.Received, r.Sends)
	if r.Latency.Ops > 0 {
		fmt.Fprintf(w, "| accept → end of DATA at the server, p50 / p99 (under this load) | %s / %s | |\n", ms(r.Latency.P50), ms(r.Latency.P99))
	}
	fmt.Fprintf(w, "| reference: %s, %s | %.0f /s | |\n", ref, freshWord, r.RefFresh)
	fmt.Fprintf(w, "| reference: %s, %s | %.0f /s | |\n", ref, reuseWord, r.RefReuse)
	fmt.Fprintf(w, "| ratio (Herald / reference per connection) | %.2f | |\n", ratio)
	if r.Members > 0 {
		brate := float64(r.Members) / max(r.BroadcastTook.Seconds(), 0.001)
		btarget := "—"
		if r.Channel == "email" {
			btarget = fmt.Sprintf("≥ 500 and ≥ 0.5 × reference (per connection) — %s", verdict(brate >= 500 && brate/max(r.RefFresh, 1) >= 0.5))
		}
		fmt.Fprintf(w, "| broadcast to a topic of %d: accepted → last message at the server | %.1f s (%.0f /s, %.2f × reference) | %s |\n", r.Members, r.BroadcastTook.Seconds(), brate, brate/max(r.RefFresh, 1), btarget)
		if r.WorkerRSS > 0 {
			fmt.Fprintf(w, "| herald process peak RSS during the broadcast | %.0f MiB | bounded |\n", float64(r.WorkerRSS)/(1<<20))
		}
		if r.HistoryEvents > 0 {
			fmt.Fprintf(w, "| broadcast history: longest run (of %d) | %d events, %.0f KiB | < 10%% of Temporal's 51,200 events — %s |\n",
				r.Runs, r.HistoryEvents, float64(r.HistoryBytes)/1024, verdict(r.HistoryEvents < 5120))
		}
	}
	fmt.Fprintln(w)
}
