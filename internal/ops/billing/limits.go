package billing

import (
	"context"
	"sync"
	"time"
)

// Limits are the concurrency limits of an app, from its client's plan; 0 is no limit.
type Limits struct {
	SendsInFlight int
	ProviderCalls int
}

// AppLimitsTTL is how long AppLimits keeps an app's limits: a plan change reaches the
// relay and the workers within it.
const AppLimitsTTL = 30 * time.Second

// AppLimits answers the concurrency limits of apps (issue 28, item 5) from their client's
// entitlement, cached per app for AppLimitsTTL, so the send path looks a plan up at most
// that often per app and process.
type AppLimits struct {
	svc *Service
	now func() time.Time
	mu  sync.Mutex
	m   map[int64]cachedLimits
}

type cachedLimits struct {
	l  Limits
	at time.Time
}

// NewAppLimits returns the limits of apps as their clients' plans set them.
func NewAppLimits(s *Service) *AppLimits {
	return &AppLimits{svc: s, now: time.Now, m: map[int64]cachedLimits{}}
}

// Of returns app's limits. An app without a client has the free plan's. On a database
// error the last known limits (or none) are returned with the error.
func (a *AppLimits) Of(ctx context.Context, appID int64) (Limits, error) {
	now := a.now()
	a.mu.Lock()
	c, ok := a.m[appID]
	a.mu.Unlock()
	if ok && now.Sub(c.at) < AppLimitsTTL {
		return c.l, nil
	}
	l, err := a.load(ctx, appID)
	if err != nil {
		return c.l, err
	}
	a.mu.Lock()
	a.m[appID] = cachedLimits{l: l, at: now}
	a.mu.Unlock()
	return l, nil
}

func (a *AppLimits) load(ctx context.Context, appID int64) (Limits, error) {
	client, err := a.svc.db.GetAppClientID(ctx, appID)
	if err != nil {
		return Limits{}, err
	}
	plan := a.svc.catalog.Free()
	if client != nil {
		e, err := a.svc.Entitlement(ctx, *client)
		if err != nil {
			return Limits{}, err
		}
		plan = e.Plan
	}
	return Limits{SendsInFlight: max(plan.MaxSendsInFlight, 0), ProviderCalls: max(plan.MaxProviderCalls, 0)}, nil
}
