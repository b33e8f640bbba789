package billing

import (
	"context"

	herald "github.com/heraldhq/herald"
)

// None is the provider of a self-hosted install: nothing can be bought or charged, so every
// client stays on the free plan (or the plan of its license).
type None struct{}

var errNoBilling = herald.Errorf(herald.ENOTFOUND, "billing is off on this installation (HERALD_BILLING_PROVIDER=none): there is nothing to pay")

// ErrWebhookUnconfigured answers the payment webhook on an installation without billing:
// the route exists in every mode, and a payment provider pointed at it by mistake gets a
// JSON 503 that says why instead of a 404 that looks like a wrong URL.
var ErrWebhookUnconfigured = herald.Errorf(herald.EUNAVAILABLE, "billing is not configured on this installation (HERALD_BILLING_PROVIDER=none): payment events are not accepted")

// Name implements Provider.
func (None) Name() string { return "none" }

// Enabled implements Provider.
func (None) Enabled() bool { return false }

// CreateCustomer implements Provider.
func (None) CreateCustomer(context.Context, int64, string) (string, error) { return "", errNoBilling }

// Subscribe implements Provider.
func (None) Subscribe(context.Context, string, string, int64) (ProviderSubscription, error) {
	return ProviderSubscription{}, errNoBilling
}

// ChangePrice implements Provider.
func (None) ChangePrice(context.Context, string, string) (ProviderSubscription, error) {
	return ProviderSubscription{}, errNoBilling
}

// Cancel implements Provider.
func (None) Cancel(context.Context, string, bool) (ProviderSubscription, error) {
	return ProviderSubscription{}, errNoBilling
}

// Resume implements Provider.
func (None) Resume(context.Context, string) (ProviderSubscription, error) {
	return ProviderSubscription{}, errNoBilling
}

// PaymentMethods implements Provider: there are none.
func (None) PaymentMethods(context.Context, string) ([]PaymentMethod, error) {
	return []PaymentMethod{}, nil
}

// SetDefaultPaymentMethod implements Provider.
func (None) SetDefaultPaymentMethod(context.Context, string, string) error {
	return herald.NotFound("payment method")
}

// DetachPaymentMethod implements Provider.
func (None) DetachPaymentMethod(context.Context, string, string) error {
	return herald.NotFound("payment method")
}

// SetupIntent implements Provider.
func (None) SetupIntent(context.Context, string) (SetupIntent, error) {
	return SetupIntent{}, errNoBilling
}

// ParseEvent implements Provider.
func (None) ParseEvent([]byte) (Event, error) { return Event{}, errNoBilling }

// WebhookSecret implements Provider.
func (None) WebhookSecret() string { return "" }
