package channels

import (
	"context"
	"errors"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/providers"
)

// Callback applies a delivery callback that a provider sent to an instance's callback URL:
// the instance's provider verifies it (where the provider signs) and parses its events,
// which move the matching message log rows to delivered, bounced, opened, clicked or
// failed. It returns how many rows changed; events about unknown messages are ignored.
func (s *Service) Callback(ctx context.Context, instanceID int64, req providers.CallbackRequest) (int, error) {
	row, err := s.db.GetProviderInstanceForCallback(ctx, instanceID)
	if err != nil {
		return 0, notFound(err)
	}
	p, err := s.Provider(ctx, candidate(row), nil)
	if err != nil {
		return 0, err
	}
	handler, ok := p.(providers.CallbackHandler)
	if !ok {
		return 0, herald.Errorf(herald.ENOTFOUND, "provider %s does not report delivery events", row.Provider)
	}
	events, err := handler.ParseCallback(req)
	switch {
	case errors.Is(err, providers.ErrBadSignature):
		return 0, herald.Errorf(herald.EUNAUTHORIZED, "callback signature does not verify")
	case err != nil:
		return 0, herald.Invalid(err.Error())
	}
	changed := 0
	for _, e := range events {
		at := e.At
		if at.IsZero() {
			at = time.Now()
		}
		id, msgID := row.ID, e.ProviderMessageID
		n, err := s.db.ApplyDeliveryEvent(ctx, dbsqlc.ApplyDeliveryEventParams{
			AppID: row.AppID, InstanceID: &id, ProviderMessageID: &msgID, Status: e.Status, At: at, Detail: e.Detail,
		})
		if err != nil {
			return changed, db.MapError(err)
		}
		changed += int(n)
	}
	return changed, nil
}
