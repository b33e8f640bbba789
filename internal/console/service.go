// Package console is the identity of people who use the console: accounts with hashed
// passwords, email verification and password reset, sessions (short-lived signed access
// tokens plus rotating refresh tokens), sign-in throttling, TOTP two-factor authentication
// with recovery codes, and sign-in through a code host (OAuth2).
package console

import (
	"encoding/json"
	"log/slog"
	"time"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/captcha"
	"github.com/heraldhq/herald/internal/console/mailer"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Config tunes the service; Defaults fills what is zero.
type Config struct {
	// SigningKey signs access, challenge and state tokens (derived from HERALD_SECRET_KEY).
	SigningKey []byte
	// ConsoleURL is the console's base URL: links in emails point there and relative
	// redirects resolve against it (HERALD_CONSOLE_URL).
	ConsoleURL string
	// Origins are the origins a redirect may point to (HERALD_CONSOLE_ORIGINS).
	Origins []string
	// SecureCookies marks the API's cookies Secure whatever the request's scheme: the public
	// URL is https (HERALD_PUBLIC_URL).
	SecureCookies bool
	// AccessTTL is the lifetime of an access token; RefreshTTL of a session.
	AccessTTL, RefreshTTL time.Duration
	// Throttle limits failed sign-ins.
	Throttle ThrottleConfig
	// CodeHost configures OAuth2 sign-in; zero ClientID turns it off.
	CodeHost CodeHostConfig
	// Requests limits sign-ups, password-reset requests and invitations per client address
	// and per email address, in LimitStore (nil: no limits).
	Requests   LimitConfig
	LimitStore ratelimit.Store
}

// ThrottleConfig limits failed sign-in attempts: after AccountMax failures for one email
// (or IPMax from one address) within Window, further attempts are refused for Lock.
type ThrottleConfig struct {
	AccountMax, IPMax int
	Window, Lock      time.Duration
}

func (c *Config) defaults() {
	if c.AccessTTL == 0 {
		c.AccessTTL = 15 * time.Minute
	}
	if c.RefreshTTL == 0 {
		c.RefreshTTL = 30 * 24 * time.Hour
	}
	if c.Throttle.AccountMax == 0 {
		c.Throttle.AccountMax = 5
	}
	if c.Throttle.IPMax == 0 {
		c.Throttle.IPMax = 20
	}
	if c.Throttle.Window == 0 {
		c.Throttle.Window = 15 * time.Minute
	}
	if c.Throttle.Lock == 0 {
		c.Throttle.Lock = 15 * time.Minute
	}
}

// Lifetimes of emailed codes and of the 2FA challenge between the two sign-in steps.
const (
	verifyTTL    = 24 * time.Hour
	resetTTL     = time.Hour
	challengeTTL = 5 * time.Minute
	stateTTL     = 10 * time.Minute
)

// Service is the console identity service.
type Service struct {
	db      *db.DB
	box     *secrets.Box
	mail    mailer.Mailer
	captcha captcha.Verifier
	audit   *audit.Log
	log     *slog.Logger
	cfg     Config
	limits  *Limits
	now     func() time.Time
}

// NewService builds the service; security events go to the audit log al.
func NewService(d *db.DB, box *secrets.Box, m mailer.Mailer, cv captcha.Verifier, al *audit.Log, log *slog.Logger, cfg Config) *Service {
	cfg.defaults()
	return &Service{db: d, box: box, mail: m, captcha: cv, audit: al, log: log, cfg: cfg, now: time.Now,
		limits: NewLimits(cfg.LimitStore, cfg.Requests, log)}
}

// User is a console user as the API shows it (ClientUserEntity).
type User struct {
	ID               int64           `json:"id"`
	Email            string          `json:"email"`
	Name             string          `json:"name"`
	EmailVerified    bool            `json:"emailVerified"`
	TwoFactorEnabled bool            `json:"twoFactorEnabled"`
	HasPassword      bool            `json:"hasPassword"`
	Onboarding       json.RawMessage `json:"onboarding"`
	CreatedAt        time.Time       `json:"createdAt"`
}

func userOf(r dbsqlc.ConsoleUser) User {
	return User{
		ID: r.ID, Email: r.Email, Name: r.Name, EmailVerified: r.EmailVerifiedAt != nil,
		TwoFactorEnabled: r.TotpEnabled, HasPassword: r.PasswordHash != nil,
		Onboarding: r.Onboarding, CreatedAt: r.CreatedAt,
	}
}
