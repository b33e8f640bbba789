package license

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Service issues licenses (with a signing key), accepts signed ones and keeps the newest
// license of each client.
type Service struct {
	db   *db.DB
	keys Keys
	ttl  time.Duration
	// Now is the clock; tests move it.
	Now func() time.Time
}

// NewService returns a Service; licenses it issues last ttl.
func NewService(d *db.DB, keys Keys, ttl time.Duration) *Service {
	return &Service{db: d, keys: keys, ttl: ttl, Now: time.Now}
}

// CanIssue reports whether this install holds the signing key.
func (s *Service) CanIssue() bool { return s.keys.Private != nil }

// Issue signs a license for a client and stores it as the client's license. A zero until
// means the configured lifetime.
func (s *Service) Issue(ctx context.Context, clientID int64, plan string, limits Limits, until time.Time) (License, error) {
	if s.keys.Private == nil {
		return License{}, herald.Errorf(herald.EUNAVAILABLE, "issuing licenses is not configured on this installation: set HERALD_LICENSE_SIGNING_KEY")
	}
	now := s.Now().Truncate(time.Second)
	if until.IsZero() || until.After(now.Add(s.ttl)) {
		until = now.Add(s.ttl)
	}
	l := License{ID: "lic_" + secrets.Token(12), ClientID: clientID, Plan: plan, Limits: limits,
		IssuedAt: now, ExpiresAt: until.Truncate(time.Second)}
	tok, err := Sign(s.keys.Private, l)
	if err != nil {
		return License{}, err
	}
	l.Token = tok
	if _, err := s.store(ctx, l); err != nil {
		return License{}, err
	}
	return l, nil
}

// Accept verifies a license pushed by the licensing server and stores it when it is newer
// than the client's current one. changed is false for a replay or an older license.
func (s *Service) Accept(ctx context.Context, token string) (l License, changed bool, err error) {
	if s.keys.Public == nil {
		return License{}, false, herald.Errorf(herald.EUNAVAILABLE, "license verification is not configured on this installation: set HERALD_LICENSE_PUBLIC_KEY to the licensing server's public key")
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return License{}, false, herald.Invalid("license should not be empty")
	}
	if l, err = Verify(s.keys.Public, token); err != nil {
		return License{}, false, err
	}
	if l.Expired(s.Now()) {
		return License{}, false, herald.Invalid("license expired at " + l.ExpiresAt.UTC().Format(time.RFC3339))
	}
	exists, err := s.db.ClientExists(ctx, l.ClientID)
	if err != nil {
		return License{}, false, db.MapError(err)
	}
	if !exists {
		return License{}, false, herald.NotFound("client")
	}
	changed, err = s.store(ctx, l)
	return l, changed, err
}

func (s *Service) store(ctx context.Context, l License) (bool, error) {
	limits, err := json.Marshal(l.Limits)
	if err != nil {
		return false, err
	}
	n, err := s.db.StoreLicense(ctx, dbsqlc.StoreLicenseParams{ClientID: l.ClientID, LicenseID: l.ID, Token: l.Token,
		Plan: l.Plan, Limits: limits, IssuedAt: l.IssuedAt, ExpiresAt: l.ExpiresAt})
	return n > 0, db.MapError(err)
}

// Get returns the client's license, or nil when it has none.
func (s *Service) Get(ctx context.Context, clientID int64) (*License, error) {
	row, err := s.db.GetLicense(ctx, clientID)
	if err != nil {
		if err = db.MapError(err); herald.ErrorCode(err) == herald.ENOTFOUND {
			return nil, nil
		}
		return nil, err
	}
	l := License{ID: row.LicenseID, ClientID: row.ClientID, Plan: row.Plan, IssuedAt: row.IssuedAt,
		ExpiresAt: row.ExpiresAt, Token: row.Token}
	_ = json.Unmarshal(row.Limits, &l.Limits)
	return &l, nil
}
