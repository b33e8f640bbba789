package pipeline

import (
	"errors"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/providers"
)

func TestBreakerTripsHoldsProbesAndCloses(t *testing.T) {
	var b breaker
	now := time.Unix(1000, 0)
	for i := range breakerTrips - 1 {
		if ok, _ := b.allow(now); !ok {
			t.Fatalf("open after %d silent calls", i)
		}
		b.record(false, now)
	}
	b.record(true, now) // an answer resets the count
	for range breakerTrips {
		b.record(false, now)
	}
	ok, at := b.allow(now.Add(time.Second))
	if ok || !at.Equal(now.Add(breakerCooldown)) {
		t.Fatalf("after %d silent calls: allow %v until %s", breakerTrips, ok, at)
	}
	later := now.Add(breakerCooldown)
	if ok, _ := b.allow(later); !ok {
		t.Fatal("no probe once the cool-down ended")
	}
	if ok, _ := b.allow(later); ok {
		t.Fatal("a second call went out beside the probe")
	}
	b.record(false, later) // the probe got no answer: open for twice as long
	if ok, at := b.allow(later.Add(time.Second)); ok || !at.Equal(later.Add(2*breakerCooldown)) {
		t.Fatalf("after a failed probe: allow %v until %s", ok, at)
	}
	again := later.Add(2 * breakerCooldown)
	if ok, _ := b.allow(again); !ok {
		t.Fatal("no second probe")
	}
	b.record(true, again)
	if ok, _ := b.allow(again); !ok {
		t.Fatal("still open after a probe was answered")
	}
}

func TestUnansweredCallsAreTheSilentOnes(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{errors.New("dial tcp: i/o timeout"), true},
		{&providers.Error{Message: "smtp: read: i/o timeout"}, true},
		{&providers.Error{StatusCode: 503, Message: "unavailable"}, false},
		{&providers.Error{RetryAfter: time.Second, Message: "slow down"}, false},
		{&providers.Error{Permanent: true, Message: "550"}, false},
		{nil, false},
	} {
		if got := unanswered(c.err); got != c.want {
			t.Errorf("unanswered(%v) = %v", c.err, got)
		}
	}
}
