package notify

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/secrets"
)

// IdempotencyWindow is how long an Idempotency-Key names one request.
const IdempotencyWindow = 24 * time.Hour

// MaxIdempotencyKeyLength caps the Idempotency-Key header.
const MaxIdempotencyKeyLength = 255

// Service accepts send requests into the outbox. It never waits on Temporal: the relay
// starts the workflow after the commit.
type Service struct {
	db   *db.DB
	wake func()
	now  func() time.Time
}

// NewService returns a Service; wake is called after each commit to rouse the relay.
func NewService(d *db.DB, wake func()) *Service {
	if wake == nil {
		wake = func() {}
	}
	return &Service{db: d, wake: wake, now: time.Now}
}

// Accept validates body and stores it as a request of the app. With an idempotency key, a
// repeat of the same body within the window returns the first request's id, and a different
// body is refused.
func (s *Service) Accept(ctx context.Context, appID int64, body []byte, idempotencyKey string) (uuid.UUID, error) {
	if len(idempotencyKey) > MaxIdempotencyKeyLength {
		return uuid.Nil, herald.Invalid("Idempotency-Key must be at most 255 characters")
	}
	req, err := Parse(body)
	if err != nil {
		return uuid.Nil, err
	}
	payload, err := json.Marshal(req)
	if err != nil {
		return uuid.Nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, err
	}
	params := dbsqlc.InsertRequestParams{
		ID: id, AppID: appID, Payload: payload, RecipientCount: int32(len(req.Recipients)),
	}
	if req.SendAt != nil && req.SendAt.After(s.now()) {
		params.SendAt = req.SendAt
	}
	if idempotencyKey == "" {
		if err := s.insert(ctx, params); err != nil {
			return uuid.Nil, err
		}
		s.wake()
		return id, nil
	}

	hash := secrets.Hash(string(body))
	params.IdempotencyKey = &idempotencyKey
	params.BodyHash = hash
	for attempt := 0; attempt < 3; attempt++ {
		prior, err := s.db.GetRequestByIdempotencyKey(ctx, dbsqlc.GetRequestByIdempotencyKeyParams{AppID: appID, IdempotencyKey: &idempotencyKey})
		switch {
		case err == nil && s.now().Sub(prior.CreatedAt) < IdempotencyWindow:
			if !secrets.Equal(prior.BodyHash, hash) {
				return uuid.Nil, herald.Errorf(herald.EUNPROCESSABLE, "Idempotency-Key %q was already used with a different request body", idempotencyKey)
			}
			return prior.ID, nil
		case err == nil:
			if err := s.db.ExpireIdempotencyKey(ctx, dbsqlc.ExpireIdempotencyKeyParams{
				AppID: appID, IdempotencyKey: &idempotencyKey, Before: s.now().Add(-IdempotencyWindow),
			}); err != nil {
				return uuid.Nil, db.MapError(err)
			}
		case herald.ErrorCode(db.MapError(err)) != herald.ENOTFOUND:
			return uuid.Nil, db.MapError(err)
		}
		err = s.insert(ctx, params)
		if err == nil {
			s.wake()
			return id, nil
		}
		var he *herald.Error
		if !errors.As(err, &he) || he.Code != herald.ECONFLICT {
			return uuid.Nil, err
		}
		// A concurrent request with the same key won the insert: answer as it did.
	}
	return uuid.Nil, herald.Errorf(herald.ECONFLICT, "Idempotency-Key %q is being used by concurrent requests; retry", idempotencyKey)
}

// insert stores the request, and its schedule when it has one, in one transaction.
func (s *Service) insert(ctx context.Context, params dbsqlc.InsertRequestParams) error {
	if params.SendAt == nil {
		return db.MapError(s.db.InsertRequest(ctx, params))
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		if err := q.InsertRequest(ctx, params); err != nil {
			return db.MapError(err)
		}
		return db.MapError(q.InsertScheduled(ctx, dbsqlc.InsertScheduledParams{AppID: params.AppID, RequestID: params.ID, SendAt: *params.SendAt}))
	})
}
