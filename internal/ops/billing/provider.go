package billing

import (
	"context"
	"time"
)

// Provider is a payment provider. Errors that are the caller's fault (an unknown payment
// method, a declined card) come back as *herald.Error; anything else is a provider
// outage.
type Provider interface {
	// Name identifies the provider in stored rows ("stripe", "none").
	Name() string
	// Enabled reports whether the provider can charge at all.
	Enabled() bool
	// CreateCustomer creates the customer of a client.
	CreateCustomer(ctx context.Context, clientID int64, name string) (customerID string, err error)
	// Subscribe starts a subscription of the customer to a price.
	Subscribe(ctx context.Context, customerID, priceID string, clientID int64) (ProviderSubscription, error)
	// ChangePrice moves a subscription to another price.
	ChangePrice(ctx context.Context, subscriptionID, priceID string) (ProviderSubscription, error)
	// Cancel ends a subscription now, or at the end of the paid period.
	Cancel(ctx context.Context, subscriptionID string, atPeriodEnd bool) (ProviderSubscription, error)
	// Resume withdraws a cancellation at the period's end.
	Resume(ctx context.Context, subscriptionID string) (ProviderSubscription, error)
	// PaymentMethods lists the customer's cards with the default one marked.
	PaymentMethods(ctx context.Context, customerID string) ([]PaymentMethod, error)
	// SetDefaultPaymentMethod makes one of the customer's methods the default.
	SetDefaultPaymentMethod(ctx context.Context, customerID, paymentMethodID string) error
	// DetachPaymentMethod removes one of the customer's methods.
	DetachPaymentMethod(ctx context.Context, customerID, paymentMethodID string) error
	// SetupIntent starts collecting a new payment method in the browser.
	SetupIntent(ctx context.Context, customerID string) (SetupIntent, error)
	// ParseEvent reads a webhook event whose signature was verified.
	ParseEvent(payload []byte) (Event, error)
	// WebhookSecret is the secret webhook signatures are made with.
	WebhookSecret() string
}

// ProviderSubscription is a subscription as the provider reports it.
type ProviderSubscription struct {
	ID                string
	CustomerID        string
	PriceID           string
	Status            string
	CurrentPeriodEnd  *time.Time
	CancelAtPeriodEnd bool
	CanceledAt        *time.Time
	// At is when the provider produced this state.
	At time.Time
	// ClientSecret confirms a first payment in the browser when Status is incomplete.
	ClientSecret string
}

// PaymentMethod is a saved card.
type PaymentMethod struct {
	ID       string `json:"id"`
	Brand    string `json:"brand"`
	Last4    string `json:"last4"`
	ExpMonth int64  `json:"expMonth"`
	ExpYear  int64  `json:"expYear"`
	Default  bool   `json:"default"`
}

// SetupIntent lets the browser collect a payment method with the provider's script.
type SetupIntent struct {
	ID             string `json:"id"`
	ClientSecret   string `json:"clientSecret"`
	PublishableKey string `json:"publishableKey,omitempty"`
}

// Event is a webhook event in Herald's terms.
type Event struct {
	ID      string
	Type    string
	Created time.Time
	// Subscription is set for subscription events, with Deleted for the final one.
	Subscription *ProviderSubscription
	Deleted      bool
	// Invoice is set for invoice events.
	Invoice *ProviderInvoice
}

// ProviderInvoice is an invoice as the provider reports it.
type ProviderInvoice struct {
	ID          string
	CustomerID  string
	Number      string
	Status      string
	Currency    string
	AmountDue   int64
	AmountPaid  int64
	PeriodStart *time.Time
	PeriodEnd   *time.Time
	HostedURL   string
	PDFURL      string
	Created     time.Time
}
