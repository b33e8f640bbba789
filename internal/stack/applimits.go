package stack

import (
	"context"
	"sync"
	"time"

	"github.com/heraldhq/herald/internal/delivery/pipeline"
	"github.com/heraldhq/herald/internal/ops/billing"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
)

// Per-app concurrency limits (issue 28, item 5): a plan's maxProviderCalls and
// maxSendsInFlight are leases in the shared store (Postgres, or Redis with
// HERALD_REDIS_URL), so they hold across every worker and relay. A lease outlives a dead
// holder by at most its TTL.
const (
	// CallLeaseTTL bounds a provider call lease: longer than any provider call's overall
	// deadline, so a live call never loses its lease, short enough that a worker killed
	// mid-call gives its app's capacity back within it.
	CallLeaseTTL = 2 * time.Minute
	// RunLeaseTTL bounds a send run's lease without a renewal: each slice of the run
	// (DeliverBatch, at most 10 minutes) renews it, and finishing the run's requests
	// releases it.
	RunLeaseTTL = 15 * time.Minute
)

// appCalls builds the pipeline's per-app provider call limit; nil when no plan sets one
// (then the send path never looks it up).
func (s *Stack) appCalls() pipeline.AppCalls {
	if !s.Cfg.Ops.Plans.HasConcurrencyLimits() {
		return nil
	}
	leases := ratelimit.NewLeases(s.Limits, "calls:app:", CallLeaseTTL)
	log := s.Log.With("component", "ratelimit", "store", s.Limits.Name())
	leases.OnError = func(err error) { log.Warn("app provider call limit store failed; the call goes ahead", "err", err) }
	return &appCallLimit{limits: s.appLimits(), leases: leases}
}

// appLimits returns the stack's cache of the apps' plan limits.
func (s *Stack) appLimits() *billing.AppLimits {
	s.appLimitsOnce.Do(func() { s.appLimitsCache = billing.NewAppLimits(s.Billing) })
	return s.appLimitsCache
}

// appCallLimit is pipeline.AppCalls over the plans' maxProviderCalls and shared leases.
type appCallLimit struct {
	limits *billing.AppLimits
	leases *ratelimit.Leases
}

func noRelease() {}

// Acquire implements pipeline.AppCalls. An app whose limits cannot be read is not held
// (fail open, like the shared limiter).
func (a *appCallLimit) Acquire(ctx context.Context, appID int64, holder string) (func(), bool) {
	l, err := a.limits.Of(ctx, appID)
	if err != nil || l.ProviderCalls <= 0 {
		return noRelease, true
	}
	if !a.leases.Acquire(ctx, appID, holder, l.ProviderCalls) {
		return nil, false
	}
	return func() { a.leases.Release(context.WithoutCancel(ctx), appID, holder) }, true
}

// appRuns builds the per-app limit of send runs in flight, as the relay takes it
// (outbox.RunLimit) and the workers renew and release it (pipeline.AppRuns); nil when no
// plan sets one. The stack's store and billing are read on first use (the relay is built
// before them).
func (s *Stack) appRuns() *appRunLimit {
	if !s.Cfg.Ops.Plans.HasConcurrencyLimits() {
		return nil
	}
	return &appRunLimit{s: s}
}

// appRunLimit is outbox.RunLimit and pipeline.AppRuns over the plans' maxSendsInFlight
// and shared leases (holder: the run's workflow id).
type appRunLimit struct {
	s      *Stack
	once   sync.Once
	leases *ratelimit.Leases
}

func (a *appRunLimit) open() (*billing.AppLimits, *ratelimit.Leases) {
	a.once.Do(func() {
		a.leases = ratelimit.NewLeases(a.s.Limits, "runs:app:", RunLeaseTTL)
		log := a.s.Log.With("component", "ratelimit", "store", a.s.Limits.Name())
		a.leases.OnError = func(err error) { log.Warn("app send run limit store failed; the run goes ahead", "err", err) }
	})
	return a.s.appLimits(), a.leases
}

// limit is app's maxSendsInFlight; 0 (no limit) when it cannot be read.
func (a *appRunLimit) limit(ctx context.Context, appID int64) (int, *ratelimit.Leases) {
	limits, leases := a.open()
	l, err := limits.Of(ctx, appID)
	if err != nil {
		return 0, leases
	}
	return l.SendsInFlight, leases
}

// Acquire implements outbox.RunLimit.
func (a *appRunLimit) Acquire(ctx context.Context, appID int64, workflowID string) bool {
	n, leases := a.limit(ctx, appID)
	return leases.Acquire(ctx, appID, workflowID, n)
}

// Renew implements pipeline.AppRuns.
func (a *appRunLimit) Renew(ctx context.Context, appID int64, workflowID string) {
	if n, leases := a.limit(ctx, appID); n > 0 {
		leases.Renew(ctx, appID, workflowID)
	}
}

// Release implements pipeline.AppRuns.
func (a *appRunLimit) Release(ctx context.Context, appID int64, workflowID string) {
	if n, leases := a.limit(ctx, appID); n > 0 {
		leases.Release(context.WithoutCancel(ctx), appID, workflowID)
	}
}

// runLimit is the stack's one appRunLimit as the relay and the workers take it: nil (an
// untyped nil interface, so no lookup at all) when no plan sets the limit.
func (s *Stack) runLimit() runLimits {
	s.runLimitOnce.Do(func() {
		if r := s.appRuns(); r != nil {
			s.runLimitVal = r
		}
	})
	return s.runLimitVal
}

// runLimits is what the relay and the workers need of appRunLimit.
type runLimits interface {
	Acquire(ctx context.Context, appID int64, workflowID string) bool
	Renew(ctx context.Context, appID int64, workflowID string)
	Release(ctx context.Context, appID int64, workflowID string)
}
