package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Delivery is one event × endpoint as the delivery log shows it.
type Delivery struct {
	ID            int64           `json:"id"`
	EndpointID    int64           `json:"endpointId"`
	MessageID     string          `json:"messageId"`
	EventType     string          `json:"eventType"`
	Data          json.RawMessage `json:"data"`
	Status        string          `json:"status"`
	Attempts      int             `json:"attempts"`
	NextAttemptAt *time.Time      `json:"nextAttemptAt"`
	LastAttemptAt *time.Time      `json:"lastAttemptAt"`
	LastStatus    *int            `json:"lastStatus"`
	LastLatencyMs *int            `json:"lastLatencyMs"`
	LastResponse  string          `json:"lastResponse"`
	LastError     string          `json:"lastError"`
	AttemptLog    json.RawMessage `json:"attemptLog"`
	CreatedAt     time.Time       `json:"createdAt"`
	DeliveredAt   *time.Time      `json:"deliveredAt"`
}

func toDelivery(r dbsqlc.WebhookDelivery) Delivery {
	d := Delivery{ID: r.ID, EndpointID: r.EndpointID, MessageID: r.MessageID, EventType: r.EventType, Data: r.Data,
		Status: r.Status, Attempts: int(r.Attempts), LastAttemptAt: r.LastAttemptAt, LastResponse: r.LastResponse,
		LastError: r.LastError, AttemptLog: r.AttemptLog, CreatedAt: r.CreatedAt, DeliveredAt: r.DeliveredAt}
	if r.Status == "pending" {
		next := r.NextAttemptAt
		d.NextAttemptAt = &next
	}
	if r.LastStatus != nil {
		v := int(*r.LastStatus)
		d.LastStatus = &v
	}
	if r.LastLatencyMs != nil {
		v := int(*r.LastLatencyMs)
		d.LastLatencyMs = &v
	}
	return d
}

// DeliveryStatuses are the states of a delivery.
var DeliveryStatuses = []string{"pending", "succeeded", "failed"}

// Page is a page of the delivery log, newest first; NextBefore pages on (0: no more).
type Page struct {
	Data       []Delivery `json:"data"`
	NextBefore int64      `json:"nextBefore"`
}

// Deliveries returns a page of the log of one endpoint (0: every endpoint of the app),
// optionally of one status, older than before (0: the newest).
func (s *Service) Deliveries(ctx context.Context, appID, endpointID int64, status string, before int64, limit int) (Page, error) {
	if endpointID != 0 {
		if _, err := s.Get(ctx, appID, endpointID); err != nil {
			return Page{}, err
		}
	}
	rows, err := s.db.ListWebhookDeliveries(ctx, dbsqlc.ListWebhookDeliveriesParams{AppID: appID, EndpointID: endpointID,
		Status: status, BeforeID: before, MaxRows: int32(limit + 1)})
	if err != nil {
		return Page{}, db.MapError(err)
	}
	p := Page{Data: make([]Delivery, 0, len(rows))}
	for i, r := range rows {
		if i == limit {
			p.NextBefore = rows[i-1].ID
			break
		}
		p.Data = append(p.Data, toDelivery(r))
	}
	return p, nil
}

// Resend queues one delivery again, now, with its webhook-id (also after it succeeded or
// failed for good).
func (s *Service) Resend(ctx context.Context, appID, endpointID, id int64) (Delivery, error) {
	r, err := s.db.ResendWebhookDelivery(ctx, dbsqlc.ResendWebhookDeliveryParams{AppID: appID, EndpointID: endpointID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return Delivery{}, herald.NotFound("webhook delivery")
	}
	if err != nil {
		return Delivery{}, db.MapError(err)
	}
	return toDelivery(r), nil
}

// Replay queues again every delivery of the endpoint recorded since a time and returns
// how many.
func (s *Service) Replay(ctx context.Context, appID, endpointID int64, since time.Time) (int64, error) {
	if _, err := s.Get(ctx, appID, endpointID); err != nil {
		return 0, err
	}
	n, err := s.db.ReplayWebhookDeliveries(ctx, dbsqlc.ReplayWebhookDeliveriesParams{AppID: appID, EndpointID: endpointID, Since: since})
	return n, db.MapError(err)
}
