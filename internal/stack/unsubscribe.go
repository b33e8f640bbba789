package stack

import (
	"context"
	"math"
	"time"

	"github.com/heraldhq/herald/api"
	"github.com/heraldhq/herald/internal/audience/prefpage"
	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// unsubscribeLinks builds the List-Unsubscribe links of emails, pointing at the API's
// public address.
func (s *Stack) unsubscribeLinks() *unsubscribe.Links {
	return &unsubscribe.Links{Signer: unsubscribe.NewSigner(s.Cfg.SecretKey), Preferences: unsubscribe.NewPreferencesSigner(s.Cfg.SecretKey),
		BaseURL: s.Cfg.ServerURL(), Mailto: s.Cfg.UnsubscribeMailto}
}

// unsubscribeHandlers serves the links, rate-limited per client address in the shared
// store (HERALD_UNSUBSCRIBE_RATE_LIMIT, bursts of five seconds' worth) so every API
// process together allows the rate once. A failing store lets the request through.
func (s *Stack) unsubscribeHandlers() *api.Unsubscribe {
	return &api.Unsubscribe{Service: &unsubscribe.Service{DB: s.DB, Signer: unsubscribe.NewSigner(s.Cfg.SecretKey)},
		Limit: s.publicLinkLimit("unsubscribe")}
}

// preferencePageHandlers serves the hosted preference page ({{preferencesUrl}}), with its
// own budget per client address at the unsubscribe links' rate.
func (s *Stack) preferencePageHandlers() *api.PreferencePage {
	return &api.PreferencePage{
		Service: &prefpage.Service{DB: s.DB, Signer: unsubscribe.NewPreferencesSigner(s.Cfg.SecretKey), Prefs: s.Prefs},
		CSRFKey: secrets.Derive(s.Cfg.SecretKey, "preference page form v1"),
		Limit:   s.publicLinkLimit("preferences"),
	}
}

// publicLinkLimit is the per-client-address limit of the links emails carry, counted under
// name in the shared store; nil when HERALD_UNSUBSCRIBE_RATE_LIMIT is 0.
func (s *Stack) publicLinkLimit(name string) func(ctx context.Context, client string) (bool, time.Duration) {
	rate := s.Cfg.UnsubscribeRateLimit
	if rate <= 0 {
		return nil
	}
	burst := math.Max(1, math.Ceil(5*rate))
	log := s.Log.With("component", "ratelimit", "store", s.Limits.Name())
	return func(ctx context.Context, client string) (bool, time.Duration) {
		ok, wait, err := s.Limits.Take(ctx, name+":ip:"+client, rate, burst)
		if err != nil {
			log.Warn(name+" rate limit store failed; the request was let through", "err", err)
			return true, 0
		}
		return ok, wait
	}
}
