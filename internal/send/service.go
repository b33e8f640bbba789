package send

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
	"github.com/heraldhq/herald/internal/flow/runnable"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// IdempotencyWindow is how long an Idempotency-Key names one request.
const IdempotencyWindow = 24 * time.Hour

// Service accepts send requests into the outbox. It never waits on Temporal: the relay
// starts the workflow after the commit.
type Service struct {
	db    *db.DB
	wake  func(appID int64, critical bool)
	now   func() time.Time
	hooks Hooks
	// schemas caches the compiled payload schema of each workflow version checked.
	schemas schemaCache
}

// Quota admits a send against its client's monthly quota: it runs insert (with nil queries
// on the pool, or the queries of a transaction it holds) or refuses with an error.
type Quota interface {
	Guard(ctx context.Context, appID int64, insert func(q *dbsqlc.Queries) error) error
}

// Hooks are optional parts of the accept path; a nil hook costs nothing.
type Hooks struct {
	// Quota refuses sends over quota.
	Quota Quota
	// TraceParent returns the W3C traceparent of ctx ("" when not traced), stored with the
	// request so its workflow joins the trace.
	TraceParent func(ctx context.Context) string
	// Accepted is called after each accepted (newly stored) request.
	Accepted func(appID int64)
	// Overrides checks the request's override against the app's provider kinds (the
	// override.<provider>._config overlays, which may not re-point a stored instance) and
	// returns one message per problem: any refuses the request with a 400.
	Overrides func(override json.RawMessage) []string
}

// SetHooks installs the optional hooks; call it before serving.
func (s *Service) SetHooks(h Hooks) { s.hooks = h }

// NewService returns a Service; wake is called after each commit to rouse the relay, with
// the request's app and whether it is critical.
func NewService(d *db.DB, wake func(appID int64, critical bool)) *Service {
	if wake == nil {
		wake = func(int64, bool) {}
	}
	return &Service{db: d, wake: wake, now: time.Now}
}

// Accept validates body and stores it as a request of the app. With an idempotency key, a
// repeat of the same body within the window returns the first request's id, and a different
// body is refused. A send (immediate or with sendAt) naming a workflow that does not exist
// has no published version or is archived is refused with a 422, and so is one whose data
// does not match the payload schema of the version it would run (every problem listed).
func (s *Service) Accept(ctx context.Context, appID int64, body []byte, idempotencyKey string) (uuid.UUID, error) {
	if len(idempotencyKey) > herald.MaxIdempotencyKeyLength {
		return uuid.Nil, herald.Invalid("Idempotency-Key must be at most 255 characters")
	}
	req, err := Parse(body)
	if err != nil {
		return uuid.Nil, err
	}
	if s.hooks.Overrides != nil && req.Override != nil {
		if probs := s.hooks.Overrides(req.Override.Raw); len(probs) > 0 {
			return uuid.Nil, herald.Invalid(probs...)
		}
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
		if params.Critical, err = s.checkWorkflow(ctx, appID, req); err != nil {
			return uuid.Nil, err
		}
		if err := s.insert(ctx, params); err != nil {
			return uuid.Nil, err
		}
		s.wake(appID, params.Critical)
		return id, nil
	}

	hash := secrets.Hash(string(body))
	params.IdempotencyKey = &idempotencyKey
	params.BodyHash = hash
	checked := false
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
		// After the key lookup: a repeat of an accepted request answers as the first did,
		// even if its workflow has gone since.
		if !checked {
			if params.Critical, err = s.checkWorkflow(ctx, appID, req); err != nil {
				return uuid.Nil, err
			}
			checked = true
		}
		err = s.insert(ctx, params)
		if err == nil {
			s.wake(appID, params.Critical)
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

// checkWorkflow refuses (422) a send naming a user-defined workflow the app does not have
// or has not published, so the caller hears it now rather than from a failed log row
// later. It costs one lookup on the (app_id, identifier) unique index, and nothing for a
// send that names no workflow. Delivery still checks again: the workflow may be deleted
// (by publishing a commit that lacks it) between the accept and the start.
//
// It also reports whether the send is critical: its workflow or its category is marked
// critical now. The relay starts critical requests before any other backlog (issue 28, item
// 4); delivery reads the marks again when it runs, so this only decides the queue.
func (s *Service) checkWorkflow(ctx context.Context, appID int64, req *herald.SendRequest) (bool, error) {
	critical, err := s.criticalCategory(ctx, appID, req.Notification.Category)
	if err != nil {
		return false, err
	}
	ref := req.Notification.Flow
	if ref == nil {
		return critical, nil
	}
	v, err := runnable.Lookup(ctx, s.db.Queries, appID, ref.Identifier)
	var un *runnable.UnavailableError
	switch {
	case errors.As(err, &un):
		hint := map[error]string{runnable.ErrNotFound: " in this app", runnable.ErrArchived: " (unarchive it first)", runnable.ErrNotPublished: " (publish it first)"}[un.Reason]
		return false, herald.Errorf(herald.EUNPROCESSABLE, "notification.workflow: %s%s", un.Error(), hint)
	case err != nil:
		return false, err
	}
	if err := s.checkPayload(ctx, appID, v, req); err != nil {
		return false, err
	}
	return critical || v.Critical, nil
}

// criticalCategory reports whether the app's category of that identifier is marked critical
// (false for "" and for a category that does not exist yet: delivery creates it uncritical).
func (s *Service) criticalCategory(ctx context.Context, appID int64, identifier string) (bool, error) {
	if identifier == "" {
		return false, nil
	}
	c, err := s.db.DeliveryCategory(ctx, dbsqlc.DeliveryCategoryParams{AppID: appID, Identifier: identifier})
	switch {
	case herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND:
		return false, nil
	case err != nil:
		return false, db.MapError(err)
	}
	return c.Critical, nil
}

// insert stores the request, and its schedule when it has one, in one transaction, once
// the quota (if any) admits it.
func (s *Service) insert(ctx context.Context, params dbsqlc.InsertRequestParams) error {
	if s.hooks.TraceParent != nil {
		if tp := s.hooks.TraceParent(ctx); tp != "" {
			params.TraceParent = &tp
		}
	}
	store := func(q *dbsqlc.Queries) error { return s.store(ctx, q, params) }
	var err error
	if s.hooks.Quota != nil {
		err = s.hooks.Quota.Guard(ctx, params.AppID, store)
	} else {
		err = store(nil)
	}
	if err == nil && s.hooks.Accepted != nil {
		s.hooks.Accepted(params.AppID)
	}
	return err
}

// store writes the request with q (inside the caller's transaction), or on the pool when q
// is nil.
func (s *Service) store(ctx context.Context, q *dbsqlc.Queries, params dbsqlc.InsertRequestParams) error {
	if params.SendAt == nil {
		if q == nil {
			q = s.db.Queries
		}
		return db.MapError(q.InsertRequest(ctx, params))
	}
	both := func(q *dbsqlc.Queries) error {
		if err := q.InsertRequest(ctx, params); err != nil {
			return db.MapError(err)
		}
		return db.MapError(q.InsertScheduled(ctx, dbsqlc.InsertScheduledParams{AppID: params.AppID, RequestID: params.ID, SendAt: *params.SendAt}))
	}
	if q != nil {
		return both(q)
	}
	return s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error { return both(q) })
}
