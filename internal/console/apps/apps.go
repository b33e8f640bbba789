// Package apps manages apps (a client's environments) and their credentials: creation,
// lookup by API key with a short-lived cache, and secret verification.
package apps

import (
	"context"
	"crypto/rsa"
	"strings"
	"sync"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// App is an app as the rest of Herald sees it. The API secret itself is not here; only its
// hash, for verification.
type App struct {
	ID         int64
	Name       string
	APIKey     string
	SecretHash []byte
	SecureAuth bool
	HMACAuth   bool
	// AllowLongLivedUserTokens accepts secure-mode user JWTs without an exp claim; off, such
	// tokens are refused (a leaked one would work forever).
	AllowLongLivedUserTokens bool
	// RSAPublicKey verifies user JWTs in secure mode; nil until a key is generated.
	RSAPublicKey *rsa.PublicKey
	// VAPIDPublicKey is the app's web push public key (base64url), empty until generated.
	VAPIDPublicKey string
	EnableWebPush  bool
	HideBranding   bool
	// AllowedOrigins are the browser origins allowed to call the app's user routes (CORS);
	// "*" allows any.
	AllowedOrigins []string
	CreatedAt      time.Time
}

// Credentials are what a backend needs to call the developer API as an app.
type Credentials struct {
	AppID     int64  `json:"appId"`
	APIKey    string `json:"apiKey"`
	APISecret string `json:"apiSecret"`
}

// cacheTTL bounds how long a changed app setting or a rotated key takes to reach every API
// process: the cache is per process and is not invalidated across processes.
const cacheTTL = 10 * time.Second

// Service creates and finds apps.
type Service struct {
	db  *db.DB
	box *secrets.Box

	mu    sync.Mutex
	cache map[string]cached
	now   func() time.Time
}

type cached struct {
	app     App
	expires time.Time
}

// NewService returns a Service over the database, sealing secrets with box.
func NewService(d *db.DB, box *secrets.Box) *Service {
	return &Service{db: d, box: box, cache: map[string]cached{}, now: time.Now}
}

// Create makes an app with fresh credentials and returns them; the secret is shown once here
// and kept only sealed.
func (s *Service) Create(ctx context.Context, name string) (Credentials, error) {
	var p herald.Problems
	if name == "" {
		p.Addf("name should not be empty")
	} else if len(name) > 100 {
		p.Addf("name must be at most 100 characters")
	}
	if err := p.Err(); err != nil {
		return Credentials{}, err
	}
	key := secrets.HexToken(16)
	secret := "hs_" + secrets.Token(32)
	row, err := s.db.CreateApp(ctx, dbsqlc.CreateAppParams{
		Name:            name,
		ApiKey:          key,
		ApiSecretHash:   secrets.Hash(secret),
		ApiSecretSealed: s.box.Seal([]byte(secret)),
	})
	if err != nil {
		return Credentials{}, db.MapError(err)
	}
	return Credentials{AppID: row.ID, APIKey: key, APISecret: secret}, nil
}

// ByAPIKey finds the app of an API key, from a per-process cache when fresh.
func (s *Service) ByAPIKey(ctx context.Context, key string) (App, error) {
	now := s.now()
	s.mu.Lock()
	c, ok := s.cache[key]
	s.mu.Unlock()
	if ok && now.Before(c.expires) {
		return c.app, nil
	}
	row, err := s.db.GetAppByAPIKey(ctx, key)
	if err != nil {
		return App{}, db.MapError(err)
	}
	app := fromRow(row)
	s.mu.Lock()
	if len(s.cache) > 10000 {
		clear(s.cache)
	}
	s.cache[strings.Clone(key)] = cached{app: app, expires: now.Add(cacheTTL)}
	s.mu.Unlock()
	return app, nil
}

// ByName finds the first app with a name (for the dev demo app).
func (s *Service) ByName(ctx context.Context, name string) (App, error) {
	row, err := s.db.GetAppByName(ctx, name)
	if err != nil {
		return App{}, db.MapError(err)
	}
	return fromRow(row), nil
}

// CheckSecret reports whether secret is the app's API secret, in constant time.
func CheckSecret(app App, secret string) bool {
	return secrets.Equal(secrets.Hash(secret), app.SecretHash)
}

// Secret unseals an app's API secret.
func (s *Service) Secret(ctx context.Context, appID int64) (string, error) {
	row, err := s.db.GetAppByID(ctx, appID)
	if err != nil {
		return "", db.MapError(err)
	}
	plain, err := s.box.Open(row.ApiSecretSealed)
	if err != nil {
		return "", err
	}
	return string(plain), nil
}

func fromRow(r dbsqlc.App) App {
	a := App{
		ID: r.ID, Name: r.Name, APIKey: r.ApiKey, SecretHash: r.ApiSecretHash,
		SecureAuth: r.SecureAuth, HMACAuth: r.HmacAuth, AllowLongLivedUserTokens: r.AllowLongLivedUserTokens, CreatedAt: r.CreatedAt,
		EnableWebPush: r.EnableWebPush, HideBranding: r.HideBranding, AllowedOrigins: r.AllowedOrigins,
	}
	if r.VapidPublicKey != nil {
		a.VAPIDPublicKey = *r.VapidPublicKey
	}
	if r.RsaPublicKey != nil {
		// A key that does not parse leaves secure mode unable to verify: every token fails.
		a.RSAPublicKey, _ = parsePublicKey(*r.RsaPublicKey)
	}
	return a
}

// forget drops an app from this process's cache after its settings changed. Other
// processes see the change within cacheTTL.
func (s *Service) forget(appID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, c := range s.cache {
		if c.app.ID == appID {
			delete(s.cache, k)
		}
	}
}
