package console

import (
	"context"
	"math"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// RetryAfter is the cause of a 429: how long the caller should wait. The HTTP edge turns it
// into a Retry-After header.
type RetryAfter struct{ After time.Duration }

// Error implements error.
func (r *RetryAfter) Error() string { return "retry after " + r.After.String() }

// Wait returns the delay.
func (r *RetryAfter) Wait() time.Duration { return r.After }

func accountKey(email string) string { return "account:" + strings.ToLower(strings.TrimSpace(email)) }
func ipKey(ip string) string         { return "ip:" + ip }

// mailKey counts system emails requested for an address (resends and password resets),
// so the endpoints cannot be used to flood a mailbox.
func mailKey(email string) string { return "mail:" + strings.ToLower(strings.TrimSpace(email)) }

// mailLimit is how many requested emails an address gets per throttle window.
const mailLimit = 5

// checkThrottle refuses the attempt while any of the keys is locked.
func (s *Service) checkThrottle(ctx context.Context, keys ...string) error {
	return s.checkThrottleMsg(ctx, "too many failed sign-in attempts: try again later", keys...)
}

// throttleEmail counts one requested email for an address and refuses it over the limit;
// it answers the same whether or not an account has the address.
func (s *Service) throttleEmail(ctx context.Context, email string) error {
	if err := s.checkThrottleMsg(ctx, "too many emails requested for this address: try again later", mailKey(email)); err != nil {
		return err
	}
	s.recordFailure(ctx, mailKey(email), mailLimit)
	return nil
}

func (s *Service) checkThrottleMsg(ctx context.Context, msg string, keys ...string) error {
	var wait time.Duration
	for _, k := range keys {
		row, err := s.db.GetThrottle(ctx, k)
		if err != nil {
			if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
				continue
			}
			return db.MapError(err)
		}
		if row.LockedUntil != nil {
			wait = max(wait, row.LockedUntil.Sub(s.now()))
		}
	}
	if wait <= 0 {
		return nil
	}
	secs := time.Duration(math.Ceil(wait.Seconds())) * time.Second
	return &herald.Error{Code: herald.ERATELIMIT, Message: msg, Err: &RetryAfter{After: secs}}
}

// recordFailure counts a failed attempt against key and locks it at the limit.
func (s *Service) recordFailure(ctx context.Context, key string, limit int) {
	row, err := s.db.RecordThrottleFailure(ctx, dbsqlc.RecordThrottleFailureParams{Key: key, WindowSeconds: s.cfg.Throttle.Window.Seconds()})
	if err != nil {
		s.log.ErrorContext(ctx, "recording a failed sign-in", "error", err)
		return
	}
	if int(row.Failures) >= limit {
		if err := s.db.LockThrottle(ctx, dbsqlc.LockThrottleParams{Key: key, LockSeconds: s.cfg.Throttle.Lock.Seconds()}); err != nil {
			s.log.ErrorContext(ctx, "locking sign-in", "error", err)
		}
	}
}

// failSignIn counts a failure against the account and the address.
func (s *Service) failSignIn(ctx context.Context, email string, from Caller) {
	s.recordFailure(ctx, accountKey(email), s.cfg.Throttle.AccountMax)
	if from.IP != "" {
		s.recordFailure(ctx, ipKey(from.IP), s.cfg.Throttle.IPMax)
	}
}

func (s *Service) throttleKeys(email string, from Caller) []string {
	keys := []string{accountKey(email)}
	if from.IP != "" {
		keys = append(keys, ipKey(from.IP))
	}
	return keys
}
