package herald

import (
	"crypto/rand"
	"encoding/hex"
	"math/big"
	"strconv"
	"time"
)

// RetryPolicy says how failed attempts are retried: attempt n (from 0) waits a random
// duration in [d/2, d], d = min(BaseDelay·2ⁿ, MaxDelay), or the server's Retry-After when
// longer (up to MaxRetryAfter; a longer Retry-After returns the 429 at once).
type RetryPolicy struct {
	// MaxRetries is how many times a request is retried after its first attempt.
	MaxRetries int
	// BaseDelay is the wait before the first retry (before jitter).
	BaseDelay time.Duration
	// MaxDelay caps the exponential wait.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After honoured (default a minute).
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy is the policy of a new Client: 3 retries from 250 ms, capped at 5 s.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 3, BaseDelay: 250 * time.Millisecond, MaxDelay: 5 * time.Second, MaxRetryAfter: time.Minute}

// backoff is the jittered wait before retry attempt+1.
func (p RetryPolicy) backoff(attempt int) time.Duration {
	d := p.BaseDelay
	for i := 0; i < attempt && d < p.MaxDelay; i++ {
		d *= 2
	}
	if p.MaxDelay > 0 && d > p.MaxDelay {
		d = p.MaxDelay
	}
	if d <= 0 {
		return 0
	}
	half := int64(d / 2)
	n, err := rand.Int(rand.Reader, big.NewInt(half+1))
	if err != nil {
		return d
	}
	return time.Duration(half + n.Int64())
}

func (p RetryPolicy) maxRetryAfter() time.Duration {
	if p.MaxRetryAfter <= 0 {
		return time.Minute
	}
	return p.MaxRetryAfter
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := time.Parse(time.RFC1123, v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

// newIdempotencyKey returns a random UUID (version 4).
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
