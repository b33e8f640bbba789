package ratelimit

import (
	"sync"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newTest(rate float64, burst int) (*Limiter, *clock) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	return newAt(rate, burst, c.now), c
}

func TestBurstThenRate(t *testing.T) {
	l, c := newTest(10, 5)
	for i := range 5 {
		if ok, _ := l.Allow(1); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	ok, wait := l.Allow(1)
	if ok {
		t.Fatal("request past the burst allowed")
	}
	if wait != 100*time.Millisecond {
		t.Errorf("wait %s, want 100ms (one token at 10/s)", wait)
	}
	c.advance(99 * time.Millisecond)
	if ok, _ := l.Allow(1); ok {
		t.Error("allowed before a token was back")
	}
	c.advance(time.Millisecond)
	if ok, _ := l.Allow(1); !ok {
		t.Error("refused once a token was back")
	}
	// A long pause refills to the burst, never beyond.
	c.advance(time.Hour)
	n := 0
	for {
		if ok, _ := l.Allow(1); !ok {
			break
		}
		n++
	}
	if n != 5 {
		t.Errorf("%d requests after a pause, want the burst (5)", n)
	}
}

func TestKeysAreIndependent(t *testing.T) {
	l, _ := newTest(1, 1)
	if ok, _ := l.Allow(1); !ok {
		t.Fatal("first of app 1")
	}
	if ok, _ := l.Allow(1); ok {
		t.Fatal("second of app 1 allowed")
	}
	for _, k := range []int64{2, 33, -1} {
		if ok, _ := l.Allow(k); !ok {
			t.Errorf("app %d refused because of app 1", k)
		}
	}
}

func TestOffAndBounds(t *testing.T) {
	if New(0, 10) != nil || New(-1, 10) != nil {
		t.Error("a rate of zero or less must disable the limiter")
	}
	var off *Limiter
	for range 1000 {
		if ok, _ := off.Allow(1); !ok {
			t.Fatal("a nil limiter refused")
		}
	}
	l, _ := newTest(0.5, 0)
	if l.Burst() != 1 {
		t.Errorf("burst %d, want at least 1", l.Burst())
	}
	l.Allow(7)
	if _, wait := l.Allow(7); wait != 2*time.Second {
		t.Errorf("wait %s at 0.5/s, want 2s", wait)
	}
}

// The limiter sits on the send path: once an app has a bucket it must not allocate.
func TestAllowDoesNotAllocate(t *testing.T) {
	l := New(1e9, 1000)
	l.Allow(42)
	if n := testing.AllocsPerRun(1000, func() { l.Allow(42) }); n != 0 {
		t.Errorf("Allow allocates %.1f times per call", n)
	}
}

func TestConcurrentCallersShareTheBudget(t *testing.T) {
	l, _ := newTest(1, 100) // the clock stands still: exactly the burst passes
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if ok, _ := l.Allow(3); ok {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if allowed != 100 {
		t.Errorf("%d of 400 concurrent requests allowed, want the burst (100)", allowed)
	}
}

func BenchmarkAllow(b *testing.B) {
	l := New(1e12, 1<<30)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var k int64
		for pb.Next() {
			l.Allow(k % 64)
			k++
		}
	})
}
