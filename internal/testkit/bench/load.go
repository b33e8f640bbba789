// Package bench is Herald's load generator and benchmark suite (`make bench`): it drives a
// running deployment over HTTP, measures a physical reference in the same run (a plain
// Postgres insert, a trivial Temporal workflow, a COPY), and reports figures and ratios.
package bench

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Stats summarises a run of operations.
type Stats struct {
	Ops      int64
	Errors   int64
	Duration time.Duration
	P50, P99 time.Duration
	// FirstError is a sample failure, to say why errors happened.
	FirstError string
}

// Rate is operations per second.
func (s Stats) Rate() float64 {
	if s.Duration <= 0 {
		return 0
	}
	return float64(s.Ops) / s.Duration.Seconds()
}

// recorder collects latencies from many goroutines.
type recorder struct {
	mu       sync.Mutex
	samples  []time.Duration
	errors   atomic.Int64
	firstErr atomic.Value
}

func (r *recorder) add(local []time.Duration) {
	r.mu.Lock()
	r.samples = append(r.samples, local...)
	r.mu.Unlock()
}

func (r *recorder) fail(err error) {
	r.errors.Add(1)
	r.firstErr.CompareAndSwap(nil, err.Error())
}

func (r *recorder) stats(d time.Duration) Stats {
	slices.Sort(r.samples)
	s := Stats{Ops: int64(len(r.samples)), Errors: r.errors.Load(), Duration: d}
	if n := len(r.samples); n > 0 {
		s.P50 = r.samples[n*50/100]
		s.P99 = r.samples[min(n-1, n*99/100)]
	}
	if v, ok := r.firstErr.Load().(string); ok {
		s.FirstError = v
	}
	return s
}

// ClosedLoop runs op from concurrency goroutines, each starting the next operation when the
// previous one ends, for d.
func ClosedLoop(ctx context.Context, concurrency int, d time.Duration, op func(ctx context.Context, worker, i int) error) Stats {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	deadline, _ := ctx.Deadline()
	var rec recorder
	var wg sync.WaitGroup
	start := time.Now()
	for w := range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, 4096)
			for i := 0; time.Now().Before(deadline); i++ {
				t := time.Now()
				err := op(ctx, w, i)
				if time.Now().After(deadline) {
					break // cut off by the end of the run: neither a success nor a failure
				}
				if err != nil {
					rec.fail(err)
					continue
				}
				local = append(local, time.Since(t))
			}
			rec.add(local)
		}()
	}
	wg.Wait()
	return rec.stats(time.Since(start))
}

// OpenLoop starts op at a fixed rate per second for d, whatever the latency, with at most
// maxInFlight operations outstanding (extra starts are counted as errors).
func OpenLoop(ctx context.Context, rate float64, d time.Duration, maxInFlight int, op func(ctx context.Context, i int) error) Stats {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var rec recorder
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxInFlight)
	interval := time.Duration(float64(time.Second) / rate)
	start := time.Now()
	var mu sync.Mutex
	var samples []time.Duration
	for i := 0; ; i++ {
		next := start.Add(time.Duration(i) * interval)
		if wait := time.Until(next); wait > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
		}
		if ctx.Err() != nil {
			break
		}
		select {
		case sem <- struct{}{}:
		default:
			rec.fail(errOverloaded)
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			t := time.Now()
			if err := op(context.WithoutCancel(ctx), i); err != nil {
				rec.fail(err)
				return
			}
			mu.Lock()
			samples = append(samples, time.Since(t))
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	rec.add(samples)
	return rec.stats(time.Since(start))
}

type benchError string

func (e benchError) Error() string { return string(e) }

const errOverloaded = benchError("too many operations in flight")
