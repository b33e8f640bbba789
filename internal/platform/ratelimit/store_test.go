package ratelimit_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// backend opens two stores on the same shared state, as two processes would.
type backend struct {
	name string
	open func(t testing.TB) (a, b ratelimit.Store)
}

func backends() []backend {
	return []backend{
		{"postgres", func(t testing.TB) (ratelimit.Store, ratelimit.Store) {
			url := dbtest.URL(t)
			var stores [2]ratelimit.Store
			for i := range stores {
				d, err := db.Open(context.Background(), url, db.PoolSize{MaxConns: 16})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(d.Close)
				stores[i] = ratelimit.NewPostgres(d.Queries)
			}
			return stores[0], stores[1]
		}},
		{"redis", func(t testing.TB) (ratelimit.Store, ratelimit.Store) {
			a, b := openRedis(t), openRedis(t)
			prefix := "herald-test:" + secrets.HexToken(6) + ":"
			a.Prefix, b.Prefix = prefix, prefix
			return a, b
		}},
	}
}

// redisURL is the Redis of the tests: HERALD_TEST_REDIS_URL, or the local default.
func redisURL() string {
	if u := os.Getenv("HERALD_TEST_REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/0"
}

func openRedis(t testing.TB) *ratelimit.Redis {
	t.Helper()
	r, err := ratelimit.NewRedis(context.Background(), redisURL())
	if err != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("Redis is required (HERALD_REQUIRE_INTEGRATION): %v", err)
		}
		t.Skipf("no Redis: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// key is unique per run, so tests on a shared Redis never see each other's buckets.
func key(name string) string { return "test:" + secrets.HexToken(6) + ":" + name }

func TestStores(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			a, b := be.open(t)
			ctx := context.Background()

			t.Run("burst then refused with the wait of one token", func(t *testing.T) {
				k := key("burst")
				for i := range 3 {
					if ok, _, err := a.Take(ctx, k, 10, 3); err != nil || !ok {
						t.Fatalf("take %d of the burst: %v %v", i+1, ok, err)
					}
				}
				ok, wait, err := b.Take(ctx, k, 10, 3)
				if err != nil || ok {
					t.Fatalf("take past the burst through the other store: ok=%v err=%v", ok, err)
				}
				if wait <= 0 || wait > 100*time.Millisecond {
					t.Errorf("wait %s, want (0, 100ms] at 10/s", wait)
				}
				time.Sleep(wait)
				if ok, _, err := b.Take(ctx, k, 10, 3); err != nil || !ok {
					t.Errorf("refused after the wait it was told: %v %v", ok, err)
				}
			})

			t.Run("two processes share one budget", func(t *testing.T) {
				k := key("shared")
				var allowed atomic.Int64
				var wg sync.WaitGroup
				for g := range 8 {
					s := a
					if g%2 == 1 {
						s = b
					}
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range 25 {
							ok, _, err := s.Take(ctx, k, 0.001, 40)
							if err != nil {
								t.Error(err)
								return
							}
							if ok {
								allowed.Add(1)
							}
						}
					}()
				}
				wg.Wait()
				if n := allowed.Load(); n != 40 {
					t.Errorf("%d of 200 takes allowed through two stores, want the burst (40)", n)
				}
			})

			t.Run("keys are independent", func(t *testing.T) {
				k1, k2 := key("one"), key("two")
				a.Take(ctx, k1, 0.001, 1)
				if ok, _, _ := a.Take(ctx, k1, 0.001, 1); ok {
					t.Fatal("second take of a bucket of one allowed")
				}
				if ok, _, _ := b.Take(ctx, k2, 0.001, 1); !ok {
					t.Error("another key refused")
				}
			})

			t.Run("reserve holds the limit across processes", func(t *testing.T) {
				k := key("quota")
				var got atomic.Int64
				var wg sync.WaitGroup
				for g := range 10 {
					s := a
					if g%2 == 1 {
						s = b
					}
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range 10 {
							ok, err := s.Reserve(ctx, k, 1, 0, 37, time.Minute)
							if err != nil {
								t.Error(err)
								return
							}
							if ok {
								got.Add(1)
							}
						}
					}()
				}
				wg.Wait()
				if n := got.Load(); n != 37 {
					t.Errorf("%d of 100 reservations granted, want the limit (37)", n)
				}
			})

			t.Run("reserve starts from the floor", func(t *testing.T) {
				k := key("floor")
				if ok, _ := a.Reserve(ctx, k, 5, 0, 100, time.Minute); !ok {
					t.Fatal("first block refused")
				}
				// The true count (floor) says 90 were used: 90 + 10 fits, 90 + 11 does not.
				if ok, _ := b.Reserve(ctx, k, 11, 90, 100, time.Minute); ok {
					t.Error("a block passing the limit from the floor was granted")
				}
				if ok, _ := b.Reserve(ctx, k, 10, 90, 100, time.Minute); !ok {
					t.Error("a block reaching the limit from the floor was refused")
				}
				if ok, _ := a.Reserve(ctx, k, 1, 0, 100, time.Minute); ok {
					t.Error("the counter fell back below the floor it was given")
				}
			})

			t.Run("expired counters start again", func(t *testing.T) {
				k := key("ttl")
				if ok, _ := a.Reserve(ctx, k, 10, 0, 10, 50*time.Millisecond); !ok {
					t.Fatal("block refused")
				}
				time.Sleep(1100 * time.Millisecond)
				if ok, err := b.Reserve(ctx, k, 10, 0, 10, time.Minute); !ok || err != nil {
					t.Errorf("an expired counter still counts: %v %v", ok, err)
				}
			})

			t.Run("wait paces callers of two processes", func(t *testing.T) {
				k := key("wait")
				start := time.Now()
				var wg sync.WaitGroup
				for g := range 2 {
					s := a
					if g == 1 {
						s = b
					}
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range 3 {
							if _, err := ratelimit.Wait(ctx, s, k, 20, 1); err != nil {
								t.Error(err)
							}
						}
					}()
				}
				wg.Wait()
				// Six tokens at 20/s from a bucket of one: the last comes 250 ms after the first.
				if d := time.Since(start); d < 240*time.Millisecond {
					t.Errorf("6 waits at 20/s took %s, want at least 250ms", d)
				}
			})

			t.Run("wait ends with its context", func(t *testing.T) {
				k := key("cancel")
				a.Take(ctx, k, 0.001, 1)
				c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
				defer cancel()
				if _, err := ratelimit.Wait(c, b, k, 0.001, 1); err != context.DeadlineExceeded {
					t.Errorf("Wait = %v, want the context's deadline", err)
				}
			})
		})
	}
}

func TestSharedLimiterFailsOpen(t *testing.T) {
	l := ratelimit.NewShared(brokenStore{}, "send:app:", 1, 1)
	var reported int
	l.OnError = func(error) { reported++ }
	if ok, _ := l.Take(context.Background(), 1); !ok {
		t.Error("a failing store refused a send")
	}
	if reported != 1 || l.Errors() != 1 {
		t.Errorf("failure reported %d times, counted %d, want 1", reported, l.Errors())
	}
	if ratelimit.NewShared(brokenStore{}, "x", 0, 1) != nil {
		t.Error("a rate of 0 must disable the limiter")
	}
	var off *ratelimit.Shared
	if ok, _ := off.Take(context.Background(), 1); !ok {
		t.Error("a nil limiter refused")
	}
}

type brokenStore struct{}

func (brokenStore) Take(context.Context, string, float64, float64) (bool, time.Duration, error) {
	return false, 0, context.DeadlineExceeded
}
func (brokenStore) Reserve(context.Context, string, int64, int64, int64, time.Duration) (bool, error) {
	return false, context.DeadlineExceeded
}
func (brokenStore) Acquire(context.Context, string, string, int64, time.Duration) (bool, error) {
	return false, context.DeadlineExceeded
}

func (brokenStore) Renew(context.Context, string, string, time.Duration) (bool, error) {
	return false, context.DeadlineExceeded
}

func (brokenStore) Release(context.Context, string, string) error { return context.DeadlineExceeded }

func (brokenStore) Name() string { return "broken" }

// BenchmarkStoreTake measures one shared Take, the cost the send path pays per request
// (docs/benchmarks.md, "Shared rate limits"), with parallel callers spread over 64 apps
// and all on one app (one row or key that every caller updates).
func BenchmarkStoreTake(b *testing.B) {
	for _, be := range backends() {
		for _, apps := range []int{64, 1} {
			b.Run(fmt.Sprintf("%s/apps=%d", be.name, apps), func(b *testing.B) {
				s, _ := be.open(b)
				prefix := key("bench")
				keys := make([]string, apps)
				for i := range keys {
					keys[i] = fmt.Sprintf("%s:%d", prefix, i)
				}
				ctx := context.Background()
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					i := 0
					for pb.Next() {
						if _, _, err := s.Take(ctx, keys[i%len(keys)], 1e9, 1e9); err != nil {
							b.Error(err)
							return
						}
						i++
					}
				})
			})
		}
	}
}
