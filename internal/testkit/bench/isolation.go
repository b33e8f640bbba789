package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// IsolationResult is the isolation scenario (issue 28): app B's accept → inbox latency at
// 10 in-app sends per second, alone and while app A runs an in-app + email broadcast and a
// burst of single sends through an SMTP server that accepts connections and never answers.
type IsolationResult struct {
	Members, BurstRate, BRate int
	Phase                     time.Duration
	// Idle and Noisy are B's accept → inbox latencies; Lost counts B's sends without an
	// inbox row 90 s after the phase.
	Idle, Noisy latencies
	// BroadcastInApp is from A's broadcast accepted to its last in-app row (0: not all
	// rows within the phase plus 30 s); InAppRows counts them.
	BroadcastInApp time.Duration
	InAppRows      int64
	// Emails A sent (broadcast + burst) while the server hung, then after it answered:
	// delivered, distinct recipients, and the time from Answer to the last.
	HeldEmails           int64
	Delivered, Distinct  int64
	Resumed              time.Duration
	HungConns, BurstSent int
	// Control, when set, is the CPU control's size in cores: B's second phase ran beside a
	// process burning that much CPU instead of A's noise (nothing else shared with Herald),
	// and ControlCores is what the burner measured.
	Control, ControlCores float64
}

type latencies struct {
	Sent, Lost    int
	P50, P95, P99 time.Duration
	// Stages and Slowest break the latency down by stage (isolation_trace.go).
	Stages  []stageStats
	Slowest []sendTrace
	// Windows are the p50 and the max of the sends of each 2 s of the phase, in order.
	Windows []window
	// starts and rows are each send's POST start and inbox row time by request id, for
	// trace.
	starts, rows map[string]time.Time
}

// trace fills Stages and Slowest from the runs' histories at addr. Isolation calls it
// once both phases are over: reading two hundred histories keeps the Temporal server busy
// for about a second, and done between the phases it was measured as the start of A's
// noise.
func (l *latencies) trace(ctx context.Context, pool *pgxpool.Pool, addr string) (err error) {
	l.Stages, l.Slowest, err = traceSends(ctx, pool, addr, l.starts, l.rows)
	return err
}

// window is the latency of the sends of 2 s of a phase.
type window struct{ P50, Max time.Duration }

// windowOf is the length of a window of latencies.
const windowOf = 2 * time.Second

// Isolation runs the scenario on a stack started with ExternalEnv (b sends as the second
// app; t is app A). With control > 0, B's second phase runs beside a process keeping that
// many cores busy instead of A's noise: what the CPU alone, shared with nothing else,
// costs B.
func Isolation(ctx context.Context, a, b *Target, members int, phase time.Duration, control float64) (IsolationResult, error) {
	res := IsolationResult{Members: members, BurstRate: 50, BRate: 10, Phase: phase, Control: control}
	pool, err := pgxpool.New(ctx, a.DatabaseURL)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	var appID int64
	if err := pool.QueryRow(ctx, "SELECT id FROM apps WHERE api_key = $1", a.APIKey).Scan(&appID); err != nil {
		return res, err
	}
	if control == 0 {
		// A's audience exists before either phase, as a real app's users do before it
		// broadcasts: seeded inside the noisy phase, its 40,000 rows (and the autovacuum
		// they set off) were measured as A's noise.
		if err := seedAudience(ctx, pool, appID, members); err != nil {
			return res, err
		}
	}
	if res.Idle, err = streamB(ctx, pool, b, "idle", res.BRate, phase); err != nil {
		return res, err
	}
	if control > 0 {
		if err := runControl(&res, func() (latencies, error) { return streamB(ctx, pool, b, "noisy", res.BRate, phase) }, control); err != nil {
			return res, err
		}
		return res, traceBoth(ctx, pool, b, &res)
	}

	mail, smtpAddr, stopSMTP, err := startSMTPSink()
	if err != nil {
		return res, err
	}
	defer stopSMTP()
	hung, err := smtptest.NewHung(smtpAddr)
	if err != nil {
		return res, err
	}
	defer hung.Close()
	cfg, _ := json.Marshal(map[string]any{"host": hung.Host, "port": hung.Port, "security": "none", "from": "bench@herald.test"})
	if _, err := pool.Exec(ctx, `INSERT INTO provider_instances (app_id, channel, provider, name, config, enabled, priority) VALUES ($1, 'email', 'smtp', 'hung', $2, true, 0)`, appID, cfg); err != nil {
		return res, err
	}

	start := time.Now()
	status, out, err := a.Do(ctx, "POST", "/v3/notifications", []byte(`{"notification":{"title":"A broadcast"},"sendTo":{"topics":["iso"]},"override":{"channels":["inApp","email"]}}`), a.AppHeaders())
	if err := expect(status, out, err, 202); err != nil {
		return res, err
	}
	var accepted struct{ RequestID string }
	_ = json.Unmarshal(out, &accepted)
	// A's burst: single in-app + email sends for the phase, beside B's stream.
	burstCtx, stopBurst := context.WithTimeout(ctx, phase)
	defer stopBurst()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second / time.Duration(res.BurstRate))
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-burstCtx.Done():
				return
			case <-tick.C:
			}
			body := fmt.Appendf(nil, `{"notification":{"title":"A burst"},"sendTo":{"recipients":[{"identifier":"burst-%d","email":"burst-%d@example.com"}]},"override":{"channels":["inApp","email"]}}`, i, i)
			if st, _, err := a.Do(ctx, "POST", "/v3/notifications", body, a.AppHeaders()); err == nil && st == 202 {
				res.BurstSent++
			}
		}
	}()
	noisy, err := streamB(ctx, pool, b, "noisy", res.BRate, phase)
	wg.Wait()
	if err != nil {
		return res, err
	}
	res.Noisy = noisy
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int64
		var last time.Time
		if err := pool.QueryRow(ctx, `SELECT count(*), COALESCE(max(created_at), now()) FROM notifications WHERE request_id = $1`, accepted.RequestID).Scan(&n, &last); err != nil {
			return res, err
		}
		res.InAppRows = n
		if n >= int64(members) {
			res.BroadcastInApp = last.Sub(start)
			break
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	res.HungConns = hung.Accepted()
	res.HeldEmails = int64(members + res.BurstSent)
	hung.Answer()
	answered := time.Now()
	last, err := mail.waitFor(ctx, res.HeldEmails, 10*time.Minute)
	res.Delivered = mail.n.Load()
	res.Distinct = int64(countArrived(mail))
	if err != nil {
		return res, fmt.Errorf("held emails after the server answered: %w", err)
	}
	res.Resumed = last.Sub(answered)
	time.Sleep(time.Second) // late duplicates
	res.Delivered, res.Distinct = mail.n.Load(), int64(countArrived(mail))
	return res, traceBoth(ctx, pool, b, &res)
}

// traceBoth traces B's sends of both phases (see latencies.trace).
func traceBoth(ctx context.Context, pool *pgxpool.Pool, b *Target, res *IsolationResult) error {
	if err := res.Idle.trace(ctx, pool, b.TemporalAddr); err != nil {
		return err
	}
	return res.Noisy.trace(ctx, pool, b.TemporalAddr)
}

// seedAudience gives app members users with an email address, all in topic "iso", and
// analyzes the tables so the planner knows them (and autovacuum has nothing to do).
func seedAudience(ctx context.Context, pool *pgxpool.Pool, appID int64, members int) error {
	if _, err := pool.Exec(ctx, `INSERT INTO users (app_id, identifier, profile) SELECT $1, 'iso-' || g, jsonb_build_object('email', 'iso-' || g || '@example.com') FROM generate_series(1, $2) g`, appID, members); err != nil {
		return err
	}
	var topicID int64
	if err := pool.QueryRow(ctx, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, 'iso', 'iso') RETURNING id`, appID).Scan(&topicID); err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `INSERT INTO topic_subscriptions (topic_id, user_id) SELECT $1, id FROM users WHERE app_id = $2 AND identifier LIKE 'iso-%'`, topicID, appID); err != nil {
		return err
	}
	_, err := pool.Exec(ctx, `VACUUM (ANALYZE) users, topics, topic_subscriptions`)
	return err
}

func countArrived(s *sink) int {
	n := 0
	s.arrived.Range(func(any, any) bool { n++; return true })
	return n
}

// streamB sends rate in-app notifications per second as app b for d, each to its own user,
// and returns the accept → inbox latencies (request start to the inbox row's creation),
// counting sends without a row 90 s after the stream ended as lost.
func streamB(ctx context.Context, pool *pgxpool.Pool, b *Target, title string, rate int, d time.Duration) (latencies, error) {
	var out latencies
	type sent struct {
		id    string
		start time.Time
	}
	var sends []sent
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	end := time.Now().Add(d)
	for i := 0; time.Now().Before(end); i++ {
		<-tick.C
		start := time.Now()
		body := fmt.Appendf(nil, `{"notification":{"title":%q},"sendTo":{"recipients":["b-%s-%d"]}}`, "B "+title, title, i)
		status, res, err := b.Do(ctx, "POST", "/v3/notifications", body, b.AppHeaders())
		if err := expect(status, res, err, 202); err != nil {
			return out, err
		}
		var accepted struct{ RequestID string }
		_ = json.Unmarshal(res, &accepted)
		sends = append(sends, sent{accepted.RequestID, start})
	}
	out.Sent = len(sends)
	got := map[string]time.Time{}
	deadline := time.Now().Add(90 * time.Second)
	for len(got) < len(sends) && time.Now().Before(deadline) {
		rows, err := pool.Query(ctx, `SELECT request_id::text, created_at FROM notifications WHERE title = $1`, "B "+title)
		if err != nil {
			return out, err
		}
		for rows.Next() {
			var id string
			var at time.Time
			if err := rows.Scan(&id, &at); err != nil {
				rows.Close()
				return out, err
			}
			got[id] = at
		}
		rows.Close()
		time.Sleep(200 * time.Millisecond)
	}
	var lat []time.Duration
	var byWindow [][]time.Duration
	for _, s := range sends {
		at, ok := got[s.id]
		if !ok {
			out.Lost++
			continue
		}
		lat = append(lat, at.Sub(s.start))
		i := int(s.start.Sub(sends[0].start) / windowOf)
		for len(byWindow) <= i {
			byWindow = append(byWindow, nil)
		}
		byWindow[i] = append(byWindow[i], at.Sub(s.start))
	}
	for _, l := range byWindow {
		slices.Sort(l)
		var w window
		if len(l) > 0 {
			w = window{P50: l[len(l)/2], Max: l[len(l)-1]}
		}
		out.Windows = append(out.Windows, w)
	}
	out.starts, out.rows = make(map[string]time.Time, len(sends)), got
	for _, s := range sends {
		out.starts[s.id] = s.start
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	out.P50, out.P95, out.P99 = pct(0.50), pct(0.95), pct(0.99)
	return out, nil
}

func (r *IsolationResult) write(w io.Writer) {
	if r.Control > 0 {
		r.writeControl(w)
		return
	}
	fmt.Fprintf(w, "## Isolation: app B's in-app sends beside app A's broadcast, burst and hung SMTP server (issue 28)\n\n")
	fmt.Fprintf(w, "App B sends %d in-app notifications per second for %s, alone, then while app A sends an in-app + email broadcast to %d users and %d in-app + email single sends per second, through an SMTP server that accepts connections and never answers (instance timeout: the default 30 s). Then the server answers.\n\n",
		r.BRate, r.Phase.Round(time.Second), r.Members, r.BurstRate)
	fmt.Fprintf(w, "| measure | value | target |\n|---|---|---|\n")
	fmt.Fprintf(w, "| B idle: p50 / p95 / p99 accept→inbox (%d sends, %d lost) | %s / %s / %s | |\n", r.Idle.Sent, r.Idle.Lost, ms(r.Idle.P50), ms(r.Idle.P95), ms(r.Idle.P99))
	fmt.Fprintf(w, "| B under A's noise: p50 / p95 / p99 (%d sends) | %s / %s / %s | p50 ≤ 1.5 × idle — %s; p99 ≤ 2 × idle — %s |\n", r.Noisy.Sent, ms(r.Noisy.P50), ms(r.Noisy.P95), ms(r.Noisy.P99),
		verdict(r.Noisy.Lost == 0 && float64(r.Noisy.P50) <= 1.5*float64(r.Idle.P50)), verdict(r.Noisy.Lost == 0 && float64(r.Noisy.P99) <= 2*float64(r.Idle.P99)))
	fmt.Fprintf(w, "| B's sends without an inbox row 90 s after the phase | %d | 0 — %s |\n", r.Noisy.Lost, verdict(r.Noisy.Lost == 0))
	inApp := "not all within the phase + 30 s"
	if r.BroadcastInApp > 0 {
		inApp = r.BroadcastInApp.Round(100 * time.Millisecond).String()
	}
	fmt.Fprintf(w, "| A's broadcast: all %d in-app rows (%d present) | %s | ≤ 30 s — %s |\n", r.Members, r.InAppRows, inApp, verdict(r.BroadcastInApp > 0 && r.BroadcastInApp <= 30*time.Second))
	fmt.Fprintf(w, "| A's emails held while the server hung (broadcast + %d burst sends; %d connections it accepted) | %d | |\n", r.BurstSent, r.HungConns, r.HeldEmails)
	fmt.Fprintf(w, "| delivered once it answered: messages / distinct recipients | %d / %d in %s | all, once — %s |\n\n", r.Delivered, r.Distinct, r.Resumed.Round(100*time.Millisecond),
		verdict(r.Distinct == r.HeldEmails && r.Delivered == r.HeldEmails))
	r.writeDetail(w, "under A's noise")
}

// writeControl writes the scenario run with the CPU control instead of A's noise.
func (r *IsolationResult) writeControl(w io.Writer) {
	fmt.Fprintf(w, "## Isolation, CPU control: app B's in-app sends beside a process burning %.1f cores (issue 28)\n\n", r.Control)
	fmt.Fprintf(w, "App B sends %d in-app notifications per second for %s, alone, then beside a process that keeps %.1f cores busy and shares nothing else with Herald (no app A): what the CPU alone costs B. The burner measured %.2f cores.\n\n",
		r.BRate, r.Phase.Round(time.Second), r.Control, r.ControlCores)
	fmt.Fprintf(w, "| measure | value | as the targets of A's noise |\n|---|---|---|\n")
	fmt.Fprintf(w, "| B idle: p50 / p95 / p99 accept→inbox (%d sends, %d lost) | %s / %s / %s | |\n", r.Idle.Sent, r.Idle.Lost, ms(r.Idle.P50), ms(r.Idle.P95), ms(r.Idle.P99))
	fmt.Fprintf(w, "| B beside the burner: p50 / p95 / p99 (%d sends, %d lost) | %s / %s / %s | p50 ≤ 1.5 × idle — %s; p99 ≤ 2 × idle — %s |\n\n", r.Noisy.Sent, r.Noisy.Lost, ms(r.Noisy.P50), ms(r.Noisy.P95), ms(r.Noisy.P99),
		verdict(r.Noisy.Lost == 0 && float64(r.Noisy.P50) <= 1.5*float64(r.Idle.P50)), verdict(r.Noisy.Lost == 0 && float64(r.Noisy.P99) <= 2*float64(r.Idle.P99)))
	r.writeDetail(w, "beside the burner")
}

// writeDetail writes B's stage tables and its latency by window, the second phase named
// second.
func (r *IsolationResult) writeDetail(w io.Writer, second string) {
	writeStages(w, "idle", r.Idle.Stages, r.Idle.Slowest)
	writeStages(w, second, r.Noisy.Stages, r.Noisy.Slowest)
	fmt.Fprintf(w, "B's latency by %s of the phase, p50 / max (ms):\n\n| phase | %s |\n|---|%s\n", windowOf, windowHeads(r.Idle.Windows, r.Noisy.Windows), strings.Repeat("---|", max(len(r.Idle.Windows), len(r.Noisy.Windows))))
	for _, p := range []struct {
		name string
		ws   []window
	}{{"idle", r.Idle.Windows}, {second, r.Noisy.Windows}} {
		var cells []string
		for _, x := range p.ws {
			cells = append(cells, fmt.Sprintf("%.0f / %.0f", float64(x.P50)/float64(time.Millisecond), float64(x.Max)/float64(time.Millisecond)))
		}
		fmt.Fprintf(w, "| %s | %s |\n", p.name, strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
}

// windowHeads names the windows of the longer phase: "0–2 s", "2–4 s", ….
func windowHeads(a, b []window) string {
	var heads []string
	for i := range max(len(a), len(b)) {
		heads = append(heads, fmt.Sprintf("%d–%d s", i*int(windowOf/time.Second), (i+1)*int(windowOf/time.Second)))
	}
	return strings.Join(heads, " | ")
}
