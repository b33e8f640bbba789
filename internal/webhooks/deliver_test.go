package webhooks

import (
	"net/http"
	"testing"
	"time"
)

func TestBackoffDoublesCapsAndHonoursRetryAfter(t *testing.T) {
	d := &Deliverer{Policy: Policy{RetryBase: 5 * time.Second, RetryMaxWait: time.Minute}, jitterFn: func() float64 { return 0 }}
	for _, c := range []struct {
		n          int
		retryAfter time.Duration
		want       time.Duration
	}{
		{1, 0, 5 * time.Second}, {2, 0, 10 * time.Second}, {4, 0, 40 * time.Second}, {5, 0, time.Minute}, {40, 0, time.Minute},
		{1, 30 * time.Second, 30 * time.Second}, {4, 10 * time.Second, 40 * time.Second}, {1, time.Hour, time.Minute},
	} {
		if got := d.backoff(c.n, c.retryAfter); got != c.want {
			t.Errorf("backoff(%d, %v) = %v, want %v", c.n, c.retryAfter, got, c.want)
		}
	}
	d.jitterFn = func() float64 { return 1 }
	if got := d.backoff(1, 0); got != 5500*time.Millisecond {
		t.Errorf("full jitter: %v, want 5.5s", got)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"": 0, "120": 2 * time.Minute, "0": 0, "-3": 0, "soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Hour).Format(http.TimeFormat):       0,
	} {
		if got := parseRetryAfter(v, now); got != want {
			t.Errorf("Retry-After %q: %v, want %v", v, got, want)
		}
	}
}
