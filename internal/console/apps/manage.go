package apps

import (
	"context"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Entity is an app as the console sees it (AppEntity). APISecret and PrivateKey are set
// only in the answers that reveal them.
type Entity struct {
	ID             int64    `json:"id"`
	ClientID       int64    `json:"clientId"`
	Name           string   `json:"name"`
	APIKey         string   `json:"apiKey"`
	SecureAuth     bool     `json:"secureAuth"`
	HMACAuth       bool     `json:"hmacAuth"`
	EnableWebPush  bool     `json:"enableWebPush"`
	HideBranding   bool     `json:"hideBranding"`
	PublicKey      string   `json:"publicKey,omitempty"`
	VAPIDPublicKey string   `json:"vapidPublicKey,omitempty"`
	AllowedOrigins []string `json:"allowedOrigins"`
	// AllowLongLivedUserTokens accepts user JWTs without exp in secure mode.
	AllowLongLivedUserTokens bool `json:"allowLongLivedUserTokens"`
	// Warnings name what makes the app's users easy to impersonate (Warn).
	Warnings   []Warning `json:"warnings"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
	APISecret  string    `json:"apiSecret,omitempty"`
	PrivateKey string    `json:"privateKey,omitempty"`
}

func entityOf(r dbsqlc.App) Entity {
	e := Entity{ID: r.ID, Name: r.Name, APIKey: r.ApiKey, SecureAuth: r.SecureAuth, HMACAuth: r.HmacAuth,
		EnableWebPush: r.EnableWebPush, HideBranding: r.HideBranding, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		AllowedOrigins: r.AllowedOrigins, AllowLongLivedUserTokens: r.AllowLongLivedUserTokens}
	if e.AllowedOrigins == nil {
		e.AllowedOrigins = []string{}
	}
	e.Warnings = Warn(e.SecureAuth, e.HMACAuth, e.AllowLongLivedUserTokens)
	if r.ClientID != nil {
		e.ClientID = *r.ClientID
	}
	if r.RsaPublicKey != nil {
		e.PublicKey = *r.RsaPublicKey
	}
	if r.VapidPublicKey != nil {
		e.VAPIDPublicKey = *r.VapidPublicKey
	}
	return e
}

// CheckName records a problem when an app name breaks the rules.
func CheckName(name string, p *herald.Problems) {
	if name == "" {
		p.Addf("name should not be empty")
	} else if len(name) > 100 {
		p.Addf("name must be at most 100 characters")
	}
}

// CreateInClient makes an app owned by a client; the answer carries the API secret.
func (s *Service) CreateInClient(ctx context.Context, clientID int64, name string) (Entity, error) {
	var p herald.Problems
	CheckName(name, &p)
	if err := p.Err(); err != nil {
		return Entity{}, err
	}
	secret := "hs_" + secrets.Token(32)
	row, err := s.db.CreateClientApp(ctx, dbsqlc.CreateClientAppParams{
		Name: name, ApiKey: secrets.HexToken(16), ApiSecretHash: secrets.Hash(secret),
		ApiSecretSealed: s.box.Seal([]byte(secret)), ClientID: &clientID,
	})
	if err != nil {
		return Entity{}, db.MapError(err)
	}
	e := entityOf(row)
	e.APISecret = secret
	return e, nil
}

// ListInClient returns a client's apps.
func (s *Service) ListInClient(ctx context.Context, clientID int64) ([]Entity, error) {
	rows, err := s.db.ListClientApps(ctx, &clientID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Entity, 0, len(rows))
	for _, r := range rows {
		out = append(out, entityOf(r))
	}
	return out, nil
}

// ClientOf returns the client owning an app; apps without one are not found, as are
// missing apps.
func (s *Service) ClientOf(ctx context.Context, appID int64) (int64, error) {
	id, err := s.db.GetAppClientID(ctx, appID)
	if err != nil || id == nil {
		return 0, herald.NotFound("app")
	}
	return *id, nil
}

// GetInClient returns an app of a client.
func (s *Service) GetInClient(ctx context.Context, clientID, appID int64) (Entity, error) {
	row, err := s.db.GetClientApp(ctx, dbsqlc.GetClientAppParams{ID: appID, ClientID: &clientID})
	if err != nil {
		if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return Entity{}, herald.NotFound("app")
		}
		return Entity{}, db.MapError(err)
	}
	return entityOf(row), nil
}

// Update is UpdateAppDTO: nil fields stay as they are.
type Update struct {
	Name                                  *string
	EnableWebPush, HideBranding, HMACAuth *bool
	// AllowLongLivedUserTokens lets secure mode accept user JWTs without exp.
	AllowLongLivedUserTokens *bool
	// AllowedOrigins replaces the app's CORS origins when non-nil (normalise them with
	// CheckOrigins first).
	AllowedOrigins []string
}

// UpdateInClient changes an app's name and settings.
func (s *Service) UpdateInClient(ctx context.Context, clientID, appID int64, u Update) (Entity, error) {
	cur, err := s.GetInClient(ctx, clientID, appID)
	if err != nil {
		return Entity{}, err
	}
	if u.Name != nil {
		var p herald.Problems
		CheckName(*u.Name, &p)
		if err := p.Err(); err != nil {
			return Entity{}, err
		}
		cur.Name = *u.Name
	}
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&cur.EnableWebPush, u.EnableWebPush)
	set(&cur.HideBranding, u.HideBranding)
	set(&cur.HMACAuth, u.HMACAuth)
	set(&cur.AllowLongLivedUserTokens, u.AllowLongLivedUserTokens)
	if u.AllowedOrigins != nil {
		cur.AllowedOrigins = u.AllowedOrigins
	}
	row, err := s.db.UpdateClientApp(ctx, dbsqlc.UpdateClientAppParams{
		ID: appID, ClientID: &clientID, Name: cur.Name, EnableWebPush: cur.EnableWebPush, HideBranding: cur.HideBranding, HmacAuth: cur.HMACAuth,
		AllowedOrigins: cur.AllowedOrigins, AllowLongLivedUserTokens: cur.AllowLongLivedUserTokens,
	})
	if err != nil {
		return Entity{}, db.MapError(err)
	}
	s.forget(appID)
	return entityOf(row), nil
}

// DeleteInClient deletes an app with its users, notifications and configuration.
func (s *Service) DeleteInClient(ctx context.Context, clientID, appID int64) error {
	n, err := s.db.DeleteClientApp(ctx, dbsqlc.DeleteClientAppParams{ID: appID, ClientID: &clientID})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("app")
	}
	s.forget(appID)
	return nil
}

// RevealSecret returns the app with its API secret.
func (s *Service) RevealSecret(ctx context.Context, clientID, appID int64) (Entity, error) {
	e, err := s.GetInClient(ctx, clientID, appID)
	if err != nil {
		return Entity{}, err
	}
	if e.APISecret, err = s.Secret(ctx, appID); err != nil {
		return Entity{}, err
	}
	return e, nil
}

// ToggleSecureAuth flips secure mode. Turning it on needs a signing key, or no user could
// authenticate any more.
func (s *Service) ToggleSecureAuth(ctx context.Context, clientID, appID int64) (Entity, error) {
	e, err := s.GetInClient(ctx, clientID, appID)
	if err != nil {
		return Entity{}, err
	}
	if !e.SecureAuth && e.PublicKey == "" {
		return Entity{}, herald.Invalid("secure authentication needs a signing key: generate one with POST /v1/apps/{appId}/rsa-key first")
	}
	if err := s.SetSecureAuth(ctx, appID, !e.SecureAuth); err != nil {
		return Entity{}, err
	}
	return s.GetInClient(ctx, clientID, appID)
}

// NewRSAKey generates the app's signing key pair; the answer carries the private key, the
// only time it is shown.
func (s *Service) NewRSAKey(ctx context.Context, clientID, appID int64) (Entity, error) {
	if _, err := s.GetInClient(ctx, clientID, appID); err != nil {
		return Entity{}, err
	}
	priv, _, err := s.GenerateRSAKey(ctx, appID)
	if err != nil {
		return Entity{}, err
	}
	e, err := s.GetInClient(ctx, clientID, appID)
	e.PrivateKey = priv
	return e, err
}

// Adopt gives an app that belongs to no client (the demo app `herald dev` creates) to the
// client; an app that already has a client is left as it is.
func (s *Service) Adopt(ctx context.Context, appID, clientID int64) error {
	_, err := s.db.AdoptApp(ctx, dbsqlc.AdoptAppParams{ID: appID, ClientID: &clientID})
	return db.MapError(err)
}
