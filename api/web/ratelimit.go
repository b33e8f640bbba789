package web

import (
	"fmt"
	"math"
	"time"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
)

// retryAfter carries a 429's delay to the error handler, which sends it as Retry-After.
type retryAfter time.Duration

func (r retryAfter) Error() string       { return "retry after " + time.Duration(r).String() }
func (r retryAfter) Wait() time.Duration { return time.Duration(r) }

// SendRateLimit refuses a send with 429 and Retry-After when the caller's app has spent
// its budget in l (HERALD_SEND_RATE_LIMIT). It runs after app authentication; a nil
// limiter lets everything through. The budget is per process (see package ratelimit).
func SendRateLimit(l *ratelimit.Limiter) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if l == nil {
			return c.Next()
		}
		p := PrincipalOf(c)
		if p == nil {
			return c.Next()
		}
		if ok, wait := l.Allow(p.App.ID); !ok {
			secs := math.Ceil(wait.Seconds())
			return &herald.Error{Code: herald.ERATELIMIT, Err: retryAfter(wait), Message: fmt.Sprintf(
				"send rate limit exceeded: this app may send %g notifications per second (bursts of %d); retry after %g s",
				l.Rate(), l.Burst(), secs)}
		}
		return c.Next()
	}
}
