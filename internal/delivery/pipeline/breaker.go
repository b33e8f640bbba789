package pipeline

import (
	"errors"
	"sync"
	"time"

	"github.com/heraldhq/herald/internal/providers"
)

// The circuit breaker of a provider instance (issue 28): after breakerTrips calls in a row
// that got no answer (a timeout, a refused or broken connection), the instance is open for
// a cool-down and its messages are not sent but handed back to the workflow, which holds
// them on a durable timer until the cool-down ends; they hold no worker slot meanwhile.
// Then one call probes the instance (half-open): an answer closes the breaker, another
// silence opens it again for twice as long, up to breakerMaxCooldown.
const (
	breakerTrips       = 5
	breakerCooldown    = 15 * time.Second
	breakerMaxCooldown = 5 * time.Minute
)

// breaker is one instance's state in this worker process.
type breaker struct {
	mu        sync.Mutex
	fails     int
	openUntil time.Time
	cooldown  time.Duration
	probing   bool
	// opened is when this process last opened it.
	opened time.Time

	// shared is the instance's row of provider_breakers as last read, at fetched (zero:
	// to read); see shared.go.
	shared  sharedBreaker
	fetched time.Time
	// reading, while a call reads the row, is closed when it has (see sharedState).
	reading chan struct{}
}

// breakerOf returns the breaker of an instance.
func (a *Service) breakerOf(instanceID int64) *breaker {
	if b, ok := a.breakers.Load(instanceID); ok {
		return b.(*breaker)
	}
	b, _ := a.breakers.LoadOrStore(instanceID, &breaker{})
	return b.(*breaker)
}

// blocked reports, without taking the probe, whether calls to the instance are held now
// and until when: checked before waiting for a call slot, so held messages wait for none.
func (b *breaker) blocked(now time.Time) (bool, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.openUntil.IsZero():
		return false, time.Time{}
	case now.Before(b.openUntil):
		return true, b.openUntil
	case b.probing:
		return true, now.Add(b.cooldown)
	}
	return false, time.Time{}
}

// allow reports whether a call may go to the instance now; when not, retryAt is when the
// instance will be tried again.
func (b *breaker) allow(now time.Time) (ok bool, retryAt time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.openUntil.IsZero():
		return true, time.Time{}
	case now.Before(b.openUntil):
		return false, b.openUntil
	case b.probing:
		// A probe is out: the others wait for its verdict, a cool-down at most.
		return false, now.Add(b.cooldown)
	}
	b.probing = true
	return true, time.Time{}
}

// record counts a call's result: an answer (even a refusal) closes the breaker, a call
// that got none counts toward opening it, and a failed probe opens it again for longer.
// It reports whether the call opened the breaker (then until and cooldown are its new
// state) and whether it closed an open one.
func (b *breaker) record(answered bool, now time.Time) (opened, closed bool, until time.Time, cooldown time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if answered {
		closed = !b.openUntil.IsZero() || b.probing
		b.fails, b.openUntil, b.cooldown, b.probing = 0, time.Time{}, 0, false
		return false, closed, time.Time{}, 0
	}
	b.fails++
	switch {
	case b.probing:
		b.probing = false
		b.cooldown = min(2*max(b.cooldown, breakerCooldown/2), breakerMaxCooldown)
		b.openUntil, b.opened = now.Add(b.cooldown), now
		return true, false, b.openUntil, b.cooldown
	case b.openUntil.IsZero() && b.fails >= breakerTrips:
		b.cooldown = breakerCooldown
		b.openUntil, b.opened = now.Add(b.cooldown), now
		return true, false, b.openUntil, b.cooldown
	}
	return false, false, time.Time{}, 0
}

// abandon forgets a call that ended without a verdict (its context ended): a probe it was
// leaves the way open for the next one.
func (b *breaker) abandon() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
}

// unanswered reports whether a failed call got no answer from the provider: a transient
// failure without a protocol status (a timeout, a refused, reset or closed connection).
// Answers — a 4xx or 5xx status, an SMTP reply, a Retry-After — show the provider is up.
func unanswered(err error) bool {
	if err == nil || providers.IsPermanent(err) {
		return false
	}
	var pe *providers.Error
	if errors.As(err, &pe) {
		return pe.StatusCode == 0 && pe.RetryAfter == 0
	}
	return true
}

// unavailableText is the message log's note for a message held by an open breaker.
func unavailableText(retryAt time.Time) string {
	return "provider unavailable, retrying at " + retryAt.UTC().Format(time.RFC3339)
}
