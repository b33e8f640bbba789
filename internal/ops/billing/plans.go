// Package billing holds plans, clients' subscriptions, payment methods and invoices, and
// decides what a client is entitled to (its plan's monthly quota), from a license, a paid
// subscription or the free plan. Payments go through a Provider: Stripe when hosted, or
// None on a self-hosted install, where every billing route answers with the free plan and
// nothing is ever charged.
package billing

import (
	"slices"

	"github.com/heraldhq/herald/internal/platform/config"
)

// Plan is a plan on offer.
type Plan struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// MonthlyQuota is the notifications a client may send a calendar month (UTC); nil is
	// unlimited.
	MonthlyQuota *int64 `json:"monthlyQuota"`
	// Price is the monthly price in the currency's minor unit (cents).
	Price    int64  `json:"price"`
	Currency string `json:"currency"`
	Interval string `json:"interval"`
	// MaxSendsInFlight bounds each of the client's apps' send runs in flight across all
	// processes; 0 is no limit (config.PlanConfig). Not shown by the API (yet).
	MaxSendsInFlight int `json:"-"`
	// MaxProviderCalls bounds each of the client's apps' provider calls in flight across
	// all processes; 0 is no limit.
	MaxProviderCalls int `json:"-"`

	priceID string
}

// Catalog is the plans of this install, the free one first.
type Catalog struct {
	plans []Plan
}

// NewCatalog builds the catalog from the configured plans (checked by config.Load).
func NewCatalog(cfg []config.PlanConfig) *Catalog {
	c := &Catalog{}
	for _, p := range cfg {
		c.plans = append(c.plans, Plan{ID: p.ID, Name: p.Name, MonthlyQuota: p.MonthlyQuota, Price: p.Price,
			Currency: p.Currency, Interval: "month", MaxSendsInFlight: p.MaxSendsInFlight, MaxProviderCalls: p.MaxProviderCalls,
			priceID: p.StripePriceID})
	}
	slices.SortStableFunc(c.plans, func(a, b Plan) int {
		switch {
		case a.ID == config.FreePlan:
			return -1
		case b.ID == config.FreePlan:
			return 1
		}
		return 0
	})
	return c
}

// All returns every plan.
func (c *Catalog) All() []Plan { return slices.Clone(c.plans) }

// Free returns the free plan.
func (c *Catalog) Free() Plan {
	p, _ := c.ByID(config.FreePlan)
	return p
}

// ByID finds a plan.
func (c *Catalog) ByID(id string) (Plan, bool) {
	for _, p := range c.plans {
		if p.ID == id {
			return p, true
		}
	}
	return Plan{}, false
}

// byPrice finds the plan of a provider price id.
func (c *Catalog) byPrice(priceID string) (Plan, bool) {
	for _, p := range c.plans {
		if priceID != "" && p.priceID == priceID {
			return p, true
		}
	}
	return Plan{}, false
}

// ids lists the plan ids for messages.
func ids(plans []Plan) []string {
	out := make([]string, len(plans))
	for i, p := range plans {
		out[i] = p.ID
	}
	return out
}
