package ratelimit_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/ratelimit"
)

// The leases of a key are a semaphore shared by every process: two stores over the same
// Postgres (or Redis) are two processes.
func TestLeases(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			a, b := be.open(t)
			ctx := context.Background()
			t.Run("two processes share the limit", func(t *testing.T) {
				k := key("lease")
				if ok, err := a.Acquire(ctx, k, "run-1", 2, time.Minute); !ok || err != nil {
					t.Fatalf("first lease: %v %v", ok, err)
				}
				if ok, err := b.Acquire(ctx, k, "run-2", 2, time.Minute); !ok || err != nil {
					t.Fatalf("second lease through the other process: %v %v", ok, err)
				}
				if ok, _ := b.Acquire(ctx, k, "run-3", 2, time.Minute); ok {
					t.Fatal("a third holder got a lease past the limit of 2")
				}
				if ok, _ := a.Acquire(ctx, k, "run-1", 2, time.Minute); !ok {
					t.Error("a holder renewing its own lease at the limit was refused")
				}
				if err := a.Release(ctx, k, "run-2"); err != nil {
					t.Fatal(err)
				}
				if ok, _ := b.Acquire(ctx, k, "run-3", 2, time.Minute); !ok {
					t.Error("refused after another process released a lease")
				}
				if err := b.Release(ctx, k, "nobody"); err != nil {
					t.Errorf("releasing a lease never held: %v", err)
				}
				if ok, err := b.Renew(ctx, k, "run-1", time.Minute); !ok || err != nil {
					t.Errorf("renewing a held lease through the other process: %v %v", ok, err)
				}
				if ok, err := a.Renew(ctx, k, "run-9", time.Minute); ok || err != nil {
					t.Errorf("renewing a lease never taken: %v %v, want false", ok, err)
				}
				// run-1 and run-3 hold 2 of 3: one is left, unless the renewal took it.
				if ok, _ := a.Acquire(ctx, k, "run-10", 3, time.Minute); !ok {
					t.Error("a renewal of a lease never taken took a slot")
				}
				if ok, _ := a.Acquire(ctx, k, "run-11", 3, time.Minute); ok {
					t.Error("a fourth holder got a lease past the limit of 3")
				}
			})
			t.Run("a dead holder's lease expires", func(t *testing.T) {
				k := key("expiry")
				if ok, _ := a.Acquire(ctx, k, "crashed", 1, 200*time.Millisecond); !ok {
					t.Fatal("lease refused")
				}
				if ok, _ := b.Acquire(ctx, k, "next", 1, time.Minute); ok {
					t.Fatal("granted while the only lease is live")
				}
				time.Sleep(300 * time.Millisecond)
				if ok, err := b.Acquire(ctx, k, "next", 1, time.Minute); !ok || err != nil {
					t.Errorf("the expired lease of a holder that never released still counts: %v %v", ok, err)
				}
			})
			t.Run("concurrent holders of two processes never pass the limit", func(t *testing.T) {
				k := key("race")
				const limit = 3
				var inside, most, granted atomic.Int64
				var wg sync.WaitGroup
				for g := range 12 {
					s := a
					if g%2 == 1 {
						s = b
					}
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := range 10 {
							h := fmt.Sprintf("h%d-%d", g, i)
							ok, err := s.Acquire(ctx, k, h, limit, time.Minute)
							if err != nil {
								t.Error(err)
								return
							}
							if !ok {
								continue
							}
							granted.Add(1)
							n := inside.Add(1)
							for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
							}
							time.Sleep(time.Millisecond)
							inside.Add(-1)
							if err := s.Release(ctx, k, h); err != nil {
								t.Error(err)
							}
						}
					}()
				}
				wg.Wait()
				if most.Load() > limit {
					t.Errorf("%d holders at once, limit %d", most.Load(), limit)
				}
				if granted.Load() < limit {
					t.Errorf("only %d leases granted in all", granted.Load())
				}
			})
		})
	}
}

func TestLeasesFailOpenAndOff(t *testing.T) {
	l := ratelimit.NewLeases(brokenStore{}, "calls:app:", time.Minute)
	var reported int
	l.OnError = func(error) { reported++ }
	if !l.Acquire(context.Background(), 1, "m", 1) {
		t.Error("a failing store held a call")
	}
	if reported != 1 || l.Errors() != 1 {
		t.Errorf("failure reported %d times, counted %d, want 1", reported, l.Errors())
	}
	if !l.Acquire(context.Background(), 1, "m", 0) || reported != 1 {
		t.Error("a limit of 0 must grant without asking the store")
	}
	var off *ratelimit.Leases
	if !off.Acquire(context.Background(), 1, "m", 1) {
		t.Error("nil leases refused")
	}
	off.Release(context.Background(), 1, "m")
}

// BenchmarkLeaseAcquireRelease measures what a provider call of an app with a plan limit
// pays (docs/benchmarks.md, "Shared rate limits"): one Acquire and one Release, with
// parallel callers spread over 64 apps and all on one app, each app allowing 64 at once.
func BenchmarkLeaseAcquireRelease(b *testing.B) {
	for _, be := range backends() {
		for _, apps := range []int{64, 1} {
			b.Run(fmt.Sprintf("%s/apps=%d", be.name, apps), func(b *testing.B) {
				s, _ := be.open(b)
				prefix := key("bench")
				ctx := context.Background()
				var n atomic.Int64
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						i := n.Add(1)
						k := fmt.Sprintf("%s:%d", prefix, i%int64(apps))
						h := fmt.Sprintf("log:%d", i)
						if _, err := s.Acquire(ctx, k, h, 64, time.Minute); err != nil {
							b.Error(err)
							return
						}
						if err := s.Release(ctx, k, h); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}
