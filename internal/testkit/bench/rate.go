package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// RateResult is scenario 8: an SMTP instance configured with a send rate (config.sendRate,
// messages per second), sent more than it allows at once; the rate observed at the server.
type RateResult struct {
	// Configured is the instance's sendRate; Sends how many single-recipient sends.
	Configured float64
	Sends      int
	// Observed is (messages − 1) ÷ (last arrival − first arrival); MaxWindow the most
	// messages that arrived within any one second.
	Observed  float64
	MaxWindow int
	Received  int64
}

// ProviderRate runs the scenario on a stack started with ExternalEnv.
func ProviderRate(ctx context.Context, t *Target, rate float64, sends int) (RateResult, error) {
	res := RateResult{Configured: rate, Sends: sends}
	s, addr, stop, err := startSMTPSink()
	if err != nil {
		return res, err
	}
	defer stop()
	var mu sync.Mutex
	var arrivals []time.Time
	s.onMessage = func(at time.Time) {
		mu.Lock()
		arrivals = append(arrivals, at)
		mu.Unlock()
	}
	pool, err := pgxpool.New(ctx, t.DatabaseURL)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	var appID int64
	if err := pool.QueryRow(ctx, "SELECT id FROM apps WHERE api_key = $1", t.APIKey).Scan(&appID); err != nil {
		return res, err
	}
	host, port, _ := net.SplitHostPort(addr)
	var p int
	fmt.Sscan(port, &p)
	config, _ := json.Marshal(map[string]any{"host": host, "port": p, "security": "none", "from": "bench@herald.test", "maxConnections": 16, "sendRate": rate})
	if _, err := pool.Exec(ctx, `INSERT INTO provider_instances (app_id, channel, provider, name, config, enabled, priority) VALUES ($1, 'email', 'smtp', 'bench-rate', $2, true, 0)`,
		appID, config); err != nil {
		return res, err
	}
	headers := t.AppHeaders()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < sends; i += 8 {
				body := fmt.Appendf(nil, `{"notification":{"title":"Rate %d","message":"Paced."},"override":{"channels":["email"]},
					"sendTo":{"recipients":[{"identifier":"rate-%d","email":"rate-%d@example.com"}]}}`, i, i, i)
				status, out, err := t.Do(ctx, "POST", "/v3/notifications", body, headers)
				if err := expect(status, out, err, 202); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return res, err
	}
	limit := time.Duration(float64(sends)/rate*3)*time.Second + time.Minute
	if _, err := s.waitFor(ctx, int64(sends), limit); err != nil {
		return res, err
	}
	res.Received = s.n.Load()
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(arrivals, func(a, b time.Time) int { return a.Compare(b) })
	if n := len(arrivals); n > 1 {
		res.Observed = float64(n-1) / arrivals[n-1].Sub(arrivals[0]).Seconds()
	}
	for i, j := 0, 0; j < len(arrivals); j++ {
		for arrivals[j].Sub(arrivals[i]) >= time.Second {
			i++
		}
		res.MaxWindow = max(res.MaxWindow, j-i+1)
	}
	return res, nil
}

func (r *RateResult) write(w io.Writer) {
	fmt.Fprintf(w, "## 8. Provider send rate: an SMTP instance with `config.sendRate: %g`, %d single-recipient sends accepted at once\n\n", r.Configured, r.Sends)
	within := r.Observed >= r.Configured*0.9 && r.Observed <= r.Configured*1.1
	fmt.Fprintf(w, "| measure | value | target |\n|---|---|---|\n")
	fmt.Fprintf(w, "| observed rate at the server (first → last message) | %.1f /s | %g /s ± 10%% — %s |\n", r.Observed, r.Configured, verdict(within))
	fmt.Fprintf(w, "| most messages within any one second | %d | |\n", r.MaxWindow)
	fmt.Fprintf(w, "| messages the server received | %d | = %d |\n\n", r.Received, r.Sends)
}
