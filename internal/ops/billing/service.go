package billing

import (
	"context"
	"log/slog"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/ops/license"
	"github.com/heraldhq/herald/internal/platform/config"
)

// Service manages clients' plans and payments. Callers check the caller's role on the
// client first; every method here acts on the client it is given.
type Service struct {
	db       *db.DB
	provider Provider
	catalog  *Catalog
	licenses *license.Service
	log      *slog.Logger
	// Now is the clock; tests move it.
	Now func() time.Time
}

// NewService returns a Service.
func NewService(d *db.DB, p Provider, c *Catalog, l *license.Service, log *slog.Logger) *Service {
	return &Service{db: d, provider: p, catalog: c, licenses: l, log: log, Now: time.Now}
}

// Provider returns the payment provider.
func (s *Service) Provider() Provider { return s.provider }

// Plans lists the plans a client can choose: only the free plan without a provider.
func (s *Service) Plans() []Plan {
	if !s.provider.Enabled() {
		return []Plan{s.catalog.Free()}
	}
	return s.catalog.All()
}

// Sources of an entitlement.
const (
	FromLicense      = "license"
	FromSubscription = "subscription"
	FromFree         = "free"
)

// Entitlement is the plan a client's sends are measured against.
type Entitlement struct {
	Plan Plan `json:"plan"`
	// Source is license, subscription or free.
	Source string `json:"source"`
	// LicenseExpired is set when an expired license sent the client back to the free plan.
	LicenseExpired bool `json:"licenseExpired,omitempty"`
}

// MonthlyQuota is the notifications a month the entitlement allows; 0 means unlimited.
func (e Entitlement) MonthlyQuota() int64 {
	if e.Plan.MonthlyQuota == nil {
		return 0
	}
	return max(*e.Plan.MonthlyQuota, 0)
}

// activeStatuses are the subscription states that still carry their plan; past_due keeps
// it while the provider retries the payment.
var activeStatuses = map[string]bool{"active": true, "trialing": true, "past_due": true}

// Entitlement decides a client's plan: a valid license first, then an active
// subscription, else the free plan.
func (s *Service) Entitlement(ctx context.Context, clientID int64) (Entitlement, error) {
	var expired bool
	if s.licenses != nil {
		l, err := s.licenses.Get(ctx, clientID)
		if err != nil {
			return Entitlement{}, err
		}
		if l != nil && !l.Expired(s.Now()) {
			plan, ok := s.catalog.ByID(l.Plan)
			if !ok {
				plan = Plan{ID: l.Plan, Name: l.Plan, Currency: "usd", Interval: "month"}
			}
			plan.MonthlyQuota = l.Limits.MonthlyNotifications
			return Entitlement{Plan: plan, Source: FromLicense}, nil
		}
		expired = l != nil
	}
	sub, err := s.subscription(ctx, clientID)
	if err != nil {
		return Entitlement{}, err
	}
	if sub != nil && activeStatuses[sub.Status] {
		if plan, ok := s.catalog.ByID(sub.Plan); ok {
			return Entitlement{Plan: plan, Source: FromSubscription, LicenseExpired: expired}, nil
		}
	}
	return Entitlement{Plan: s.catalog.Free(), Source: FromFree, LicenseExpired: expired}, nil
}

// subscription returns the stored subscription row, or nil.
func (s *Service) subscription(ctx context.Context, clientID int64) (*dbsqlc.Subscription, error) {
	row, err := s.db.GetSubscription(ctx, clientID)
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return nil, nil
		}
		return nil, err
	}
	return &row, nil
}

// customer returns the client's customer id at the provider, creating the customer when
// create is set; "" when there is none.
func (s *Service) customer(ctx context.Context, clientID int64, create bool) (string, error) {
	row, err := s.db.GetBillingCustomer(ctx, dbsqlc.GetBillingCustomerParams{ClientID: clientID, Provider: s.provider.Name()})
	if err == nil {
		return row.CustomerID, nil
	}
	if err = db.MapError(err); herald.ErrorCode(err) != herald.ENOTFOUND {
		return "", err
	}
	if !create {
		return "", nil
	}
	client, err := s.db.GetClient(ctx, clientID)
	if err != nil {
		return "", db.MapError(err)
	}
	id, err := s.provider.CreateCustomer(ctx, clientID, client.Name)
	if err != nil {
		return "", err
	}
	row, err = s.db.InsertBillingCustomer(ctx, dbsqlc.InsertBillingCustomerParams{ClientID: clientID, Provider: s.provider.Name(), CustomerID: id})
	if err != nil {
		return "", db.MapError(err)
	}
	return row.CustomerID, nil
}

// requireCustomer returns the customer id, or 404 for a payment method of a client that
// never had one.
func (s *Service) requireCustomer(ctx context.Context, clientID int64) (string, error) {
	if !s.provider.Enabled() {
		return "", herald.NotFound("payment method")
	}
	id, err := s.customer(ctx, clientID, false)
	if err == nil && id == "" {
		err = herald.NotFound("payment method")
	}
	return id, err
}

// PaymentMethods lists the client's saved cards.
func (s *Service) PaymentMethods(ctx context.Context, clientID int64) ([]PaymentMethod, error) {
	if !s.provider.Enabled() {
		return []PaymentMethod{}, nil
	}
	id, err := s.customer(ctx, clientID, false)
	if err != nil || id == "" {
		return []PaymentMethod{}, err
	}
	return s.provider.PaymentMethods(ctx, id)
}

// DefaultPaymentMethod returns the default card, or nil.
func (s *Service) DefaultPaymentMethod(ctx context.Context, clientID int64) (*PaymentMethod, error) {
	list, err := s.PaymentMethods(ctx, clientID)
	if err != nil {
		return nil, err
	}
	for _, m := range list {
		if m.Default {
			return &m, nil
		}
	}
	return nil, nil
}

// SetDefaultPaymentMethod makes one of the client's cards the default for invoices.
func (s *Service) SetDefaultPaymentMethod(ctx context.Context, clientID int64, id string) error {
	cust, err := s.requireCustomer(ctx, clientID)
	if err != nil {
		return err
	}
	return s.provider.SetDefaultPaymentMethod(ctx, cust, id)
}

// DeletePaymentMethod removes one of the client's cards.
func (s *Service) DeletePaymentMethod(ctx context.Context, clientID int64, id string) error {
	cust, err := s.requireCustomer(ctx, clientID)
	if err != nil {
		return err
	}
	return s.provider.DetachPaymentMethod(ctx, cust, id)
}

// SetupIntent starts adding a card, creating the client's customer when needed.
func (s *Service) SetupIntent(ctx context.Context, clientID int64) (SetupIntent, error) {
	if !s.provider.Enabled() {
		return SetupIntent{}, errNoBilling
	}
	cust, err := s.customer(ctx, clientID, true)
	if err != nil {
		return SetupIntent{}, err
	}
	return s.provider.SetupIntent(ctx, cust)
}

// Invoice is an invoice as the console shows it.
type Invoice struct {
	ID          string     `json:"id"`
	Number      string     `json:"number"`
	Status      string     `json:"status"`
	Currency    string     `json:"currency"`
	AmountDue   int64      `json:"amountDue"`
	AmountPaid  int64      `json:"amountPaid"`
	PeriodStart *time.Time `json:"periodStart"`
	PeriodEnd   *time.Time `json:"periodEnd"`
	HostedURL   string     `json:"hostedInvoiceUrl"`
	PDFURL      string     `json:"invoicePdf"`
	CreatedAt   time.Time  `json:"createdAt"`
}

// MaxInvoices caps the invoice list.
const MaxInvoices = 100

// Invoices lists the client's invoices, newest first, as the provider's webhooks reported
// them.
func (s *Service) Invoices(ctx context.Context, clientID int64) ([]Invoice, error) {
	rows, err := s.db.ListInvoices(ctx, dbsqlc.ListInvoicesParams{ClientID: clientID, MaxRows: MaxInvoices})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Invoice, 0, len(rows))
	for _, r := range rows {
		out = append(out, Invoice{ID: r.ExternalID, Number: r.Number, Status: r.Status, Currency: r.Currency,
			AmountDue: r.AmountDue, AmountPaid: r.AmountPaid, PeriodStart: r.PeriodStart, PeriodEnd: r.PeriodEnd,
			HostedURL: r.HostedUrl, PDFURL: r.PdfUrl, CreatedAt: r.CreatedAt})
	}
	return out, nil
}

// checkPlanID validates a requested plan against the plans on offer.
func (s *Service) checkPlanID(id string) (Plan, error) {
	plans := s.Plans()
	for _, p := range plans {
		if p.ID == id {
			return p, nil
		}
	}
	if strings.TrimSpace(id) == "" {
		return Plan{}, herald.Invalid("plan should not be empty")
	}
	return Plan{}, herald.Invalid("plan must be one of " + strings.Join(ids(plans), ", "))
}

// freePlanID is the id of the free plan.
const freePlanID = config.FreePlan
