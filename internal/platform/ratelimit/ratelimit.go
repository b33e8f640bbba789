// Package ratelimit holds Herald's rate limits. Limiter is a token bucket per key kept in
// the memory of one process (a map lookup and a mutex, no allocation). Shared, Wait and the
// quota reservations keep their state in a Store that every process sees (Postgres, or
// Redis with HERALD_REDIS_URL), so N processes together allow a rate once, not N times; the
// stack uses them for the per-app send rate limit, the per-provider-instance send rates and
// the quota gate (docs/deployment.md).
package ratelimit

import (
	"math"
	"sync"
	"time"
)

// shards spreads the buckets over several locks so concurrent sends of different apps do
// not queue on one mutex.
const shards = 32

// Limiter is a token bucket per key (an app id): each holds up to Burst tokens and gains
// Rate tokens per second; a request takes one. The zero of Rate disables the limiter.
type Limiter struct {
	rate  float64
	burst float64
	now   func() time.Time
	base  time.Time
	shard [shards]shard
}

type shard struct {
	mu      sync.Mutex
	buckets map[int64]*bucket
}

type bucket struct {
	tokens float64
	// at is when tokens was last brought up to date, in nanoseconds since the limiter's base.
	at int64
}

// New returns a limiter allowing rate requests per second per key with bursts of up to
// burst requests (at least one). A rate of zero or less returns nil: no limit.
func New(rate float64, burst int) *Limiter {
	return newAt(rate, burst, time.Now)
}

func newAt(rate float64, burst int, now func() time.Time) *Limiter {
	if rate <= 0 {
		return nil
	}
	l := &Limiter{rate: rate, burst: math.Max(1, float64(burst)), now: now, base: now()}
	for i := range l.shard {
		l.shard[i].buckets = map[int64]*bucket{}
	}
	return l
}

// Rate is the sustained rate in requests per second.
func (l *Limiter) Rate() float64 { return l.rate }

// Burst is the most requests accepted at once after a quiet period.
func (l *Limiter) Burst() int { return int(l.burst) }

// Allow takes a token from key's bucket. When there is none it takes nothing and returns
// false with the time until one is there. A nil limiter allows everything. Allow does not
// allocate once key has a bucket.
func (l *Limiter) Allow(key int64) (bool, time.Duration) {
	if l == nil {
		return true, 0
	}
	now := int64(l.now().Sub(l.base))
	s := &l.shard[uint64(key)%shards]
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		s.buckets[key] = b
	}
	if elapsed := now - b.at; elapsed > 0 {
		b.tokens = math.Min(l.burst, b.tokens+float64(elapsed)*l.rate/float64(time.Second))
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	return false, max(wait, time.Millisecond)
}
