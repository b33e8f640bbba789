// Package stripeprovider is the Stripe payment provider of billing, on stripe-go. The API
// base URL is configurable so tests (and proxies) can point it at a local server.
package stripeprovider

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v84"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/ops/billing"
)

// Config configures the provider.
type Config struct {
	SecretKey, WebhookSecret, PublishableKey string
	// APIURL replaces https://api.stripe.com when set.
	APIURL string
	// HTTPClient makes the calls; nil means one with a 30-second timeout.
	HTTPClient *http.Client
}

// Provider talks to Stripe.
type Provider struct {
	sc  *stripe.Client
	cfg Config
}

// New returns the provider.
func New(cfg Config) *Provider {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	bc := &stripe.BackendConfig{HTTPClient: hc, MaxNetworkRetries: stripe.Int64(2),
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull}}
	if cfg.APIURL != "" {
		bc.URL = stripe.String(strings.TrimRight(cfg.APIURL, "/"))
	}
	return &Provider{sc: stripe.NewClient(cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc))), cfg: cfg}
}

var _ billing.Provider = (*Provider)(nil)

// Name implements billing.Provider.
func (p *Provider) Name() string { return "stripe" }

// Enabled implements billing.Provider.
func (p *Provider) Enabled() bool { return true }

// WebhookSecret implements billing.Provider.
func (p *Provider) WebhookSecret() string { return p.cfg.WebhookSecret }

// CreateCustomer implements billing.Provider; the customer carries the client id in its
// metadata.
func (p *Provider) CreateCustomer(ctx context.Context, clientID int64, name string) (string, error) {
	params := &stripe.CustomerCreateParams{Name: stripe.String(name)}
	params.AddMetadata("herald_client_id", strconv.FormatInt(clientID, 10))
	c, err := p.sc.V1Customers.Create(ctx, params)
	if err != nil {
		return "", classify(err, "customer")
	}
	return c.ID, nil
}

// Subscribe implements billing.Provider. The subscription starts incomplete until the
// first invoice is paid; its confirmation secret lets the browser confirm the payment.
func (p *Provider) Subscribe(ctx context.Context, customerID, priceID string, clientID int64) (billing.ProviderSubscription, error) {
	params := &stripe.SubscriptionCreateParams{
		Customer:        stripe.String(customerID),
		Items:           []*stripe.SubscriptionCreateItemParams{{Price: stripe.String(priceID)}},
		PaymentBehavior: stripe.String("default_incomplete"),
	}
	params.AddMetadata("herald_client_id", strconv.FormatInt(clientID, 10))
	params.AddExpand("latest_invoice.confirmation_secret")
	s, err := p.sc.V1Subscriptions.Create(ctx, params)
	if err != nil {
		return billing.ProviderSubscription{}, classify(err, "subscription")
	}
	return subscriptionOf(s), nil
}

// ChangePrice implements billing.Provider: the subscription's one item moves to the new
// price, prorated.
func (p *Provider) ChangePrice(ctx context.Context, id, priceID string) (billing.ProviderSubscription, error) {
	cur, err := p.sc.V1Subscriptions.Retrieve(ctx, id, nil)
	if err != nil {
		return billing.ProviderSubscription{}, classify(err, "subscription")
	}
	if cur.Items == nil || len(cur.Items.Data) == 0 {
		return billing.ProviderSubscription{}, errors.New("stripe: subscription " + id + " has no items")
	}
	s, err := p.sc.V1Subscriptions.Update(ctx, id, &stripe.SubscriptionUpdateParams{
		Items:             []*stripe.SubscriptionUpdateItemParams{{ID: stripe.String(cur.Items.Data[0].ID), Price: stripe.String(priceID)}},
		ProrationBehavior: stripe.String("create_prorations"),
	})
	if err != nil {
		return billing.ProviderSubscription{}, classify(err, "subscription")
	}
	return subscriptionOf(s), nil
}

// Cancel implements billing.Provider.
func (p *Provider) Cancel(ctx context.Context, id string, atPeriodEnd bool) (billing.ProviderSubscription, error) {
	var s *stripe.Subscription
	var err error
	if atPeriodEnd {
		s, err = p.sc.V1Subscriptions.Update(ctx, id, &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(true)})
	} else {
		s, err = p.sc.V1Subscriptions.Cancel(ctx, id, nil)
	}
	if err != nil {
		return billing.ProviderSubscription{}, classify(err, "subscription")
	}
	return subscriptionOf(s), nil
}

// Resume implements billing.Provider.
func (p *Provider) Resume(ctx context.Context, id string) (billing.ProviderSubscription, error) {
	s, err := p.sc.V1Subscriptions.Update(ctx, id, &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(false)})
	if err != nil {
		return billing.ProviderSubscription{}, classify(err, "subscription")
	}
	return subscriptionOf(s), nil
}

// PaymentMethods implements billing.Provider: the customer's cards, the invoice default
// marked.
func (p *Provider) PaymentMethods(ctx context.Context, customerID string) ([]billing.PaymentMethod, error) {
	c, err := p.sc.V1Customers.Retrieve(ctx, customerID, nil)
	if err != nil {
		return nil, classify(err, "customer")
	}
	def := ""
	if c.InvoiceSettings != nil && c.InvoiceSettings.DefaultPaymentMethod != nil {
		def = c.InvoiceSettings.DefaultPaymentMethod.ID
	}
	out := []billing.PaymentMethod{}
	params := &stripe.PaymentMethodListParams{Customer: stripe.String(customerID), Type: stripe.String("card")}
	for pm, err := range p.sc.V1PaymentMethods.List(ctx, params) {
		if err != nil {
			return nil, classify(err, "payment method")
		}
		m := billing.PaymentMethod{ID: pm.ID, Default: pm.ID == def}
		if pm.Card != nil {
			m.Brand, m.Last4, m.ExpMonth, m.ExpYear = string(pm.Card.Brand), pm.Card.Last4, pm.Card.ExpMonth, pm.Card.ExpYear
		}
		out = append(out, m)
		if len(out) >= 100 {
			break
		}
	}
	return out, nil
}

// owned checks that a payment method belongs to the customer: another customer's method is
// not found.
func (p *Provider) owned(ctx context.Context, customerID, id string) error {
	pm, err := p.sc.V1PaymentMethods.Retrieve(ctx, id, nil)
	if err != nil {
		return classify(err, "payment method")
	}
	if pm.Customer == nil || pm.Customer.ID != customerID {
		return herald.NotFound("payment method")
	}
	return nil
}

// SetDefaultPaymentMethod implements billing.Provider.
func (p *Provider) SetDefaultPaymentMethod(ctx context.Context, customerID, id string) error {
	if err := p.owned(ctx, customerID, id); err != nil {
		return err
	}
	_, err := p.sc.V1Customers.Update(ctx, customerID, &stripe.CustomerUpdateParams{
		InvoiceSettings: &stripe.CustomerUpdateInvoiceSettingsParams{DefaultPaymentMethod: stripe.String(id)},
	})
	return classify(err, "customer")
}

// DetachPaymentMethod implements billing.Provider.
func (p *Provider) DetachPaymentMethod(ctx context.Context, customerID, id string) error {
	if err := p.owned(ctx, customerID, id); err != nil {
		return err
	}
	_, err := p.sc.V1PaymentMethods.Detach(ctx, id, nil)
	return classify(err, "payment method")
}

// SetupIntent implements billing.Provider: a card to be used later, off session.
func (p *Provider) SetupIntent(ctx context.Context, customerID string) (billing.SetupIntent, error) {
	si, err := p.sc.V1SetupIntents.Create(ctx, &stripe.SetupIntentCreateParams{
		Customer: stripe.String(customerID), Usage: stripe.String("off_session"),
		PaymentMethodTypes: []*string{stripe.String("card")},
	})
	if err != nil {
		return billing.SetupIntent{}, classify(err, "setup intent")
	}
	return billing.SetupIntent{ID: si.ID, ClientSecret: si.ClientSecret, PublishableKey: p.cfg.PublishableKey}, nil
}

// ParseEvent implements billing.Provider for customer.subscription.* and invoice.* events.
func (p *Provider) ParseEvent(payload []byte) (billing.Event, error) {
	var e stripe.Event
	if err := json.Unmarshal(payload, &e); err != nil || e.ID == "" || e.Data == nil {
		return billing.Event{}, herald.Invalid("body must be a Stripe event with id, type and data.object")
	}
	ev := billing.Event{ID: e.ID, Type: string(e.Type), Created: time.Unix(e.Created, 0)}
	switch {
	case strings.HasPrefix(ev.Type, "customer.subscription."):
		var s stripe.Subscription
		if err := json.Unmarshal(e.Data.Raw, &s); err != nil {
			return billing.Event{}, herald.Invalid("data.object must be a subscription")
		}
		ps := subscriptionOf(&s)
		ev.Subscription, ev.Deleted = &ps, ev.Type == "customer.subscription.deleted"
	case strings.HasPrefix(ev.Type, "invoice."):
		var in stripe.Invoice
		if err := json.Unmarshal(e.Data.Raw, &in); err != nil {
			return billing.Event{}, herald.Invalid("data.object must be an invoice")
		}
		ev.Invoice = invoiceOf(&in)
	}
	return ev, nil
}

func stamp(unix int64) *time.Time {
	if unix == 0 {
		return nil
	}
	t := time.Unix(unix, 0).UTC()
	return &t
}

func subscriptionOf(s *stripe.Subscription) billing.ProviderSubscription {
	ps := billing.ProviderSubscription{ID: s.ID, Status: string(s.Status), CancelAtPeriodEnd: s.CancelAtPeriodEnd || s.CancelAt != 0,
		CanceledAt: stamp(s.CanceledAt)}
	if s.Customer != nil {
		ps.CustomerID = s.Customer.ID
	}
	if s.Items != nil && len(s.Items.Data) > 0 {
		it := s.Items.Data[0]
		ps.CurrentPeriodEnd = stamp(it.CurrentPeriodEnd)
		if it.Price != nil {
			ps.PriceID = it.Price.ID
		}
	}
	if s.LatestInvoice != nil && s.LatestInvoice.ConfirmationSecret != nil {
		ps.ClientSecret = s.LatestInvoice.ConfirmationSecret.ClientSecret
	}
	return ps
}

func invoiceOf(in *stripe.Invoice) *billing.ProviderInvoice {
	out := &billing.ProviderInvoice{ID: in.ID, Number: in.Number, Status: string(in.Status), Currency: string(in.Currency),
		AmountDue: in.AmountDue, AmountPaid: in.AmountPaid, PeriodStart: stamp(in.PeriodStart), PeriodEnd: stamp(in.PeriodEnd),
		HostedURL: in.HostedInvoiceURL, PDFURL: in.InvoicePDF, Created: time.Unix(in.Created, 0).UTC()}
	if in.Customer != nil {
		out.CustomerID = in.Customer.ID
	}
	return out
}

// classify turns Stripe's answers into Herald errors: a missing object is not found, a
// declined card or a bad request is the caller's problem (422), the rest is an outage.
func classify(err error, what string) error {
	if err == nil {
		return nil
	}
	var se *stripe.Error
	if errors.As(err, &se) {
		switch {
		case se.HTTPStatusCode == http.StatusNotFound || se.Code == stripe.ErrorCodeResourceMissing:
			return herald.NotFound(what)
		case se.Type == stripe.ErrorTypeCard:
			return herald.Errorf(herald.EUNPROCESSABLE, "the payment provider declined: %s", se.Msg)
		case se.HTTPStatusCode == http.StatusBadRequest || se.HTTPStatusCode == http.StatusPaymentRequired:
			return herald.Errorf(herald.EUNPROCESSABLE, "the payment provider refused: %s", se.Msg)
		}
	}
	return &herald.Error{Code: herald.EUNAVAILABLE, Message: "the payment provider is unavailable; retry later", Err: err}
}
