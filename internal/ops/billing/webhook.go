package billing

import (
	"context"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// HandleWebhook verifies and applies a payment provider's event, and returns the client it
// concerned (0 for none). It answers false for an event whose id was applied before (a
// redelivery or a replay): the event is acknowledged and changes nothing. The event id is
// recorded in the transaction that applies the event, so an event that fails to apply can
// be delivered again. Without billing (HERALD_BILLING_PROVIDER=none) every event is
// ErrWebhookUnconfigured, before its signature is looked at.
func (s *Service) HandleWebhook(ctx context.Context, payload []byte, signature string) (applied bool, clientID int64, err error) {
	if !s.provider.Enabled() {
		return false, 0, ErrWebhookUnconfigured
	}
	if err := VerifySignature(payload, signature, s.provider.WebhookSecret(), s.Now()); err != nil {
		return false, 0, err
	}
	ev, err := s.provider.ParseEvent(payload)
	if err != nil {
		return false, 0, err
	}
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		n, err := q.RecordPaymentEvent(ctx, dbsqlc.RecordPaymentEventParams{Provider: s.provider.Name(), EventID: ev.ID, Type: ev.Type})
		if err != nil || n == 0 {
			return db.MapError(err)
		}
		applied = true
		clientID, err = s.apply(ctx, q, ev)
		return err
	})
	if err == nil {
		s.log.InfoContext(ctx, "billing: webhook event", "event", ev.ID, "type", ev.Type, "applied", applied, "clientId", clientID)
	}
	return applied, clientID, err
}

// apply updates the subscription or invoice an event reports; events of customers Herald
// does not know, and other event types, are recorded and otherwise ignored.
func (s *Service) apply(ctx context.Context, q *dbsqlc.Queries, ev Event) (int64, error) {
	var customer string
	switch {
	case ev.Subscription != nil:
		customer = ev.Subscription.CustomerID
	case ev.Invoice != nil:
		customer = ev.Invoice.CustomerID
	default:
		return 0, nil
	}
	clientID, err := q.ClientOfCustomer(ctx, dbsqlc.ClientOfCustomerParams{Provider: s.provider.Name(), CustomerID: customer})
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			s.log.WarnContext(ctx, "billing: event of an unknown customer; ignored", "event", ev.ID, "type", ev.Type, "customer", customer)
			return 0, nil
		}
		return 0, err
	}
	if sub := ev.Subscription; sub != nil {
		state := *sub
		state.At = ev.Created
		if ev.Deleted {
			state.Status = "canceled"
		}
		return clientID, s.store(ctx, q, clientID, state)
	}
	inv := ev.Invoice
	return clientID, db.MapError(q.UpsertInvoice(ctx, dbsqlc.UpsertInvoiceParams{ClientID: clientID, Provider: s.provider.Name(),
		ExternalID: inv.ID, Number: inv.Number, Status: inv.Status, Currency: inv.Currency, AmountDue: inv.AmountDue,
		AmountPaid: inv.AmountPaid, PeriodStart: inv.PeriodStart, PeriodEnd: inv.PeriodEnd, HostedUrl: inv.HostedURL,
		PdfUrl: inv.PDFURL, StateAt: ev.Created, CreatedAt: inv.Created}))
}
