package billing

import (
	"context"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Subscription is a client's subscription as the console shows it: the plan in force and,
// for a paid plan, the provider's state of it.
type Subscription struct {
	Plan Plan `json:"plan"`
	// Source is what grants the plan: subscription, license or free.
	Source string `json:"source"`
	// Status is the paid subscription's state (active, past_due, canceled, …), or active
	// for the free plan.
	Status            string     `json:"status"`
	Provider          string     `json:"provider"`
	CurrentPeriodEnd  *time.Time `json:"currentPeriodEnd"`
	CancelAtPeriodEnd bool       `json:"cancelAtPeriodEnd"`
	CanceledAt        *time.Time `json:"canceledAt"`
	LicenseExpired    bool       `json:"licenseExpired,omitempty"`
	// ClientSecret confirms the first payment in the browser while Status is incomplete.
	ClientSecret string `json:"clientSecret,omitempty"`
}

// Subscription returns the client's subscription.
func (s *Service) Subscription(ctx context.Context, clientID int64) (Subscription, error) {
	ent, err := s.Entitlement(ctx, clientID)
	if err != nil {
		return Subscription{}, err
	}
	out := Subscription{Plan: ent.Plan, Source: ent.Source, Status: "active", Provider: s.provider.Name(), LicenseExpired: ent.LicenseExpired}
	row, err := s.subscription(ctx, clientID)
	if err != nil || row == nil {
		return out, err
	}
	if ent.Source == FromSubscription || !activeStatuses[row.Status] {
		// A subscription in force, or one that lapsed: show its state.
		out.Status = row.Status
		out.CurrentPeriodEnd, out.CancelAtPeriodEnd, out.CanceledAt = row.CurrentPeriodEnd, row.CancelAtPeriodEnd, row.CanceledAt
	}
	return out, nil
}

// ChangePlan moves the client to a plan (UpdateSubscriptionDTO {plan}): it subscribes, or
// changes the price of the current subscription; the free plan cancels the paid one at the
// end of its period.
func (s *Service) ChangePlan(ctx context.Context, clientID int64, planID string) (Subscription, error) {
	plan, err := s.checkPlanID(planID)
	if err != nil {
		return Subscription{}, err
	}
	if plan.ID == freePlanID {
		return s.Cancel(ctx, clientID, false)
	}
	row, err := s.subscription(ctx, clientID)
	if err != nil {
		return Subscription{}, err
	}
	var ps ProviderSubscription
	if row != nil && row.Provider == s.provider.Name() && row.Status != "canceled" && row.Status != "incomplete_expired" {
		if ps, err = s.provider.ChangePrice(ctx, row.ExternalID, plan.priceID); err != nil {
			return Subscription{}, err
		}
		if ps.CancelAtPeriodEnd {
			if ps, err = s.provider.Resume(ctx, row.ExternalID); err != nil {
				return Subscription{}, err
			}
		}
	} else {
		cust, err := s.customer(ctx, clientID, true)
		if err != nil {
			return Subscription{}, err
		}
		if ps, err = s.provider.Subscribe(ctx, cust, plan.priceID, clientID); err != nil {
			return Subscription{}, err
		}
	}
	if err := s.store(ctx, s.db.Queries, clientID, ps); err != nil {
		return Subscription{}, err
	}
	out, err := s.Subscription(ctx, clientID)
	out.ClientSecret = ps.ClientSecret
	return out, err
}

// Cancel ends the client's paid subscription at the end of the paid period, or at once.
// Without a paid subscription it changes nothing.
func (s *Service) Cancel(ctx context.Context, clientID int64, immediately bool) (Subscription, error) {
	return s.changeSubscription(ctx, clientID, func(id string) (ProviderSubscription, error) {
		return s.provider.Cancel(ctx, id, !immediately)
	})
}

// Resume withdraws a cancellation requested for the end of the period
// (DELETE …/subscription/cancellationRequest).
func (s *Service) Resume(ctx context.Context, clientID int64) (Subscription, error) {
	return s.changeSubscription(ctx, clientID, func(id string) (ProviderSubscription, error) {
		return s.provider.Resume(ctx, id)
	})
}

func (s *Service) changeSubscription(ctx context.Context, clientID int64, change func(id string) (ProviderSubscription, error)) (Subscription, error) {
	row, err := s.subscription(ctx, clientID)
	if err != nil {
		return Subscription{}, err
	}
	if row != nil && row.Provider == s.provider.Name() && s.provider.Enabled() && row.Status != "canceled" {
		ps, err := change(row.ExternalID)
		if err != nil {
			return Subscription{}, err
		}
		if err := s.store(ctx, s.db.Queries, clientID, ps); err != nil {
			return Subscription{}, err
		}
	}
	return s.Subscription(ctx, clientID)
}

// store records a provider's subscription state for a client; a state older than the one
// stored is ignored.
func (s *Service) store(ctx context.Context, q *dbsqlc.Queries, clientID int64, ps ProviderSubscription) error {
	plan, ok := s.catalog.byPrice(ps.PriceID)
	if !ok {
		s.log.Warn("billing: subscription with a price of no configured plan; ignored", "subscription", ps.ID, "price", ps.PriceID, "clientId", clientID)
		return nil
	}
	at := ps.At
	if at.IsZero() {
		// The provider's event times are whole seconds: an event of the same second as
		// this answer is applied after it.
		at = s.Now().Truncate(time.Second)
	}
	_, err := q.UpsertSubscription(ctx, dbsqlc.UpsertSubscriptionParams{ClientID: clientID, Provider: s.provider.Name(),
		ExternalID: ps.ID, Plan: plan.ID, Status: ps.Status, CurrentPeriodEnd: ps.CurrentPeriodEnd,
		CancelAtPeriodEnd: ps.CancelAtPeriodEnd, CanceledAt: ps.CanceledAt, StateAt: at})
	if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
		return nil // a newer state is stored already
	}
	return err
}
