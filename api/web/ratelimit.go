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
// limiter lets everything through. The budget is shared by every API process when l is a
// ratelimit.Shared (as the stack builds it).
func SendRateLimit(l ratelimit.KeyLimiter) fiber.Handler {
	if l == nil || isNilLimiter(l) {
		return func(c *fiber.Ctx) error { return c.Next() }
	}
	return func(c *fiber.Ctx) error {
		p := PrincipalOf(c)
		if p == nil {
			return c.Next()
		}
		if ok, wait := l.Take(c.UserContext(), p.App.ID); !ok {
			secs := math.Ceil(wait.Seconds())
			return &herald.Error{Code: herald.ERATELIMIT, Err: retryAfter(wait), Message: fmt.Sprintf(
				"send rate limit exceeded: this app may send %g notifications per second (bursts of %d); retry after %g s",
				l.Rate(), l.Burst(), secs)}
		}
		return c.Next()
	}
}

// isNilLimiter tells a typed nil limiter (no limit configured) inside the interface.
func isNilLimiter(l ratelimit.KeyLimiter) bool {
	switch v := l.(type) {
	case *ratelimit.Shared:
		return v == nil
	case *ratelimit.Limiter:
		return v == nil
	}
	return false
}
