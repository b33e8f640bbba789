package unsubscribe

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Service applies unsubscribe tokens.
type Service struct {
	DB     *db.DB
	Signer *Signer
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Target is what a valid token unsubscribes, for the page that confirms it.
type Target struct {
	AppName      string
	User         string
	CategoryName string
}

// errInvalid is the one answer to every bad token: which check failed is not told.
func errInvalid() error {
	return herald.Errorf(herald.ENOTFOUND, "%s", ErrInvalid.Error())
}

func (s *Service) claims(token string) (Claims, error) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	c, err := s.Signer.Verify(token, now())
	if err != nil {
		return Claims{}, errInvalid()
	}
	return c, nil
}

// Describe returns what token unsubscribes; an invalid token, or one whose user or
// category no longer exists, is a not-found error.
func (s *Service) Describe(ctx context.Context, token string) (Target, error) {
	c, err := s.claims(token)
	if err != nil {
		return Target{}, err
	}
	row, err := s.DB.UnsubscribeTarget(ctx, dbsqlc.UnsubscribeTargetParams{AppID: c.App, UserID: c.User, CategoryID: c.Scope})
	if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
		return Target{}, errInvalid()
	} else if err != nil {
		return Target{}, err
	}
	name := row.CategoryName
	if name == "" {
		name = row.CategoryIdentifier
	}
	return Target{AppName: row.AppName, User: row.UserIdentifier, CategoryName: name}, nil
}

// Unsubscribe turns email off for the token's user in its category, through the same
// category × channel switch as PUT /v3/preferences. Applying a token twice changes
// nothing more. An invalid token, or one whose user or category is gone, changes nothing
// and is a not-found error.
func (s *Service) Unsubscribe(ctx context.Context, token string) error {
	c, err := s.claims(token)
	if err != nil {
		return err
	}
	// The switch and its user.unsubscribed event for webhook endpoints commit together.
	var n int64
	err = s.DB.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		var err error
		n, err = q.UnsubscribeCategoryChannel(ctx, dbsqlc.UnsubscribeCategoryChannelParams{
			AppID: c.App, UserID: c.User, CategoryID: c.Scope, Channel: herald.ChannelEmail,
		})
		if err != nil || n == 0 {
			return err
		}
		return q.EnqueueUnsubscribedEvent(ctx, dbsqlc.EnqueueUnsubscribedEventParams{
			AppID: c.App, UserID: c.User, CategoryID: c.Scope, Channel: herald.ChannelEmail,
		})
	})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return errInvalid()
	}
	return nil
}
