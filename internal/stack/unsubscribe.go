package stack

import (
	"context"
	"math"
	"time"

	"github.com/heraldhq/herald/api"
	"github.com/heraldhq/herald/internal/audience/unsubscribe"
)

// unsubscribeLinks builds the List-Unsubscribe links of emails, pointing at the API's
// public address.
func (s *Stack) unsubscribeLinks() *unsubscribe.Links {
	return &unsubscribe.Links{Signer: unsubscribe.NewSigner(s.Cfg.SecretKey), BaseURL: s.Cfg.ServerURL(), Mailto: s.Cfg.UnsubscribeMailto}
}

// unsubscribeHandlers serves the links, rate-limited per client address in the shared
// store (HERALD_UNSUBSCRIBE_RATE_LIMIT, bursts of five seconds' worth) so every API
// process together allows the rate once. A failing store lets the request through.
func (s *Stack) unsubscribeHandlers() *api.Unsubscribe {
	h := &api.Unsubscribe{Service: &unsubscribe.Service{DB: s.DB, Signer: unsubscribe.NewSigner(s.Cfg.SecretKey)}}
	if rate := s.Cfg.UnsubscribeRateLimit; rate > 0 {
		burst := math.Max(1, math.Ceil(5*rate))
		log := s.Log.With("component", "ratelimit", "store", s.Limits.Name())
		h.Limit = func(ctx context.Context, client string) (bool, time.Duration) {
			ok, wait, err := s.Limits.Take(ctx, "unsubscribe:ip:"+client, rate, burst)
			if err != nil {
				log.Warn("unsubscribe rate limit store failed; the request was let through", "err", err)
				return true, 0
			}
			return ok, wait
		}
	}
	return h
}
