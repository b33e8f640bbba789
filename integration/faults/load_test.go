package faults

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loadResult is what one request of the steady load got.
type loadResult struct {
	phase   string
	at      time.Time
	status  int
	err     error
	took    time.Duration
	body    string
	request string
	// key is the send's Idempotency-Key.
	key string
}

// load is senders (and an inbox reader) calling the API in a loop, 20 ms apart. Each send
// carries its own Idempotency-Key, as a careful client's would: Go's HTTP client then
// retries a send whose kept-alive connection the server closed just as it went out.
type load struct {
	mu      sync.Mutex
	current string
	results []loadResult
	quit    chan struct{}
	wg      sync.WaitGroup
	seq     atomic.Int64
}

func startLoad(c *client, senders int, reader bool) *load {
	l := &load{current: "steady", quit: make(chan struct{})}
	workers := senders
	if reader {
		workers++
	}
	for w := range workers {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for {
				select {
				case <-l.quit:
					return
				default:
				}
				l.mu.Lock()
				r := loadResult{phase: l.current, at: time.Now()}
				l.mu.Unlock()
				if w == senders {
					// The read path must degrade the same way.
					r.status, _, r.err = c.do("GET", "/v3/notifications?userIdentifier=reader-0", nil, nil)
				} else {
					n := l.seq.Add(1)
					body := fmt.Sprintf(`{"notification":{"title":"load %d"},"sendTo":{"recipients":["reader-%d","u%d"]}}`, n, w, n)
					var out []byte
					r.key = fmt.Sprintf("load-%d", n)
					r.status, out, r.err = c.do("POST", "/v3/notifications", []byte(body), map[string]string{"Idempotency-Key": r.key})
					r.body = string(out)
					if r.status == 202 {
						var acc struct{ RequestID string }
						_ = json.Unmarshal(out, &acc)
						r.request = acc.RequestID
					}
				}
				r.took = time.Since(r.at)
				l.mu.Lock()
				l.results = append(l.results, r)
				l.mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	return l
}

// phase names the requests started from now on.
func (l *load) phase(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.current = name
}

// waitAccepted waits until a send started after now is accepted, marks the requests from
// then on as "after <phase>", and returns how long that took.
func (l *load) waitAccepted(t *testing.T, phase string, limit time.Duration) time.Duration {
	t.Helper()
	from := time.Now()
	for time.Since(from) < limit {
		l.mu.Lock()
		for _, r := range l.results {
			if r.status == 202 && r.at.After(from) {
				l.current = "after " + phase
				l.mu.Unlock()
				return r.at.Sub(from)
			}
		}
		l.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no send accepted within %s after the %s ended", limit, phase)
	return 0
}

func (l *load) stop() []loadResult {
	close(l.quit)
	l.wg.Wait()
	return l.results
}

func firstLine(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s ×%d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
