package console

import (
	"context"
	"log/slog"
	"math"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/ratelimit"
)

// LimitConfig caps the account requests anyone may make without signing in or that send
// mail: sign-ups, password-reset requests and invitations. Each kind has a budget per
// client address (…PerIP) and one per email address (PerEmail, each kind apart), spent
// evenly over Window (a token bucket of that many tokens refilled over Window). Zero turns
// a budget off.
type LimitConfig struct {
	Window                               time.Duration
	SignUpPerIP, ResetPerIP, InvitePerIP int
	PerEmail                             int
}

// Kinds of limited requests, as the keys and messages name them.
const (
	LimitSignUp = "sign-up"
	LimitReset  = "password-reset"
	LimitInvite = "invitation"
)

// Limits are the budgets of LimitConfig, kept in the shared rate-limit store so every API
// process spends the same budget (ratelimit.Store: Postgres, or Redis).
type Limits struct {
	store ratelimit.Store
	cfg   LimitConfig
	log   *slog.Logger
}

// NewLimits returns the limits of cfg kept in store; a nil store allows everything.
func NewLimits(store ratelimit.Store, cfg LimitConfig, log *slog.Logger) *Limits {
	if cfg.Window <= 0 {
		cfg.Window = time.Hour
	}
	return &Limits{store: store, cfg: cfg, log: log}
}

func (l *Limits) perIP(kind string) int {
	switch kind {
	case LimitSignUp:
		return l.cfg.SignUpPerIP
	case LimitReset:
		return l.cfg.ResetPerIP
	default:
		return l.cfg.InvitePerIP
	}
}

// Take spends one request of kind from the budget of the client address ip and of the
// email address email, or answers 429 (herald.ERATELIMIT with the wait, which the HTTP edge
// sends as Retry-After) naming the budget that ran out. It is cheap (one store call per
// budget), so it comes before anything costly: captcha checks, password hashing, mail. A
// store that fails lets the request through and is logged: a limit that failed closed
// would turn a store outage into an outage of sign-up.
func (l *Limits) Take(ctx context.Context, kind, email, ip string) error {
	if l == nil || l.store == nil {
		return nil
	}
	if ip != "" {
		if err := l.take(ctx, kind, "ip:"+ip, l.perIP(kind), "from your network address"); err != nil {
			return err
		}
	}
	if email != "" {
		return l.take(ctx, kind, "email:"+strings.ToLower(strings.TrimSpace(email)), l.cfg.PerEmail, "for this email address")
	}
	return nil
}

func (l *Limits) take(ctx context.Context, kind, key string, n int, what string) error {
	if n <= 0 {
		return nil
	}
	ok, wait, err := l.store.Take(ctx, "account:"+kind+":"+key, float64(n)/l.cfg.Window.Seconds(), float64(n))
	if err != nil {
		l.log.WarnContext(ctx, "account request limit store failed; the request was let through", "kind", kind, "error", err)
		return nil
	}
	if ok {
		return nil
	}
	secs := time.Duration(math.Ceil(wait.Seconds())) * time.Second
	return &herald.Error{Code: herald.ERATELIMIT, Err: &RetryAfter{After: secs},
		Message: "too many " + kind + " requests " + what + ": try again later"}
}

// Limits returns the service's account request limits (the invitations of the clients
// service spend them too).
func (s *Service) Limits() *Limits { return s.limits }
