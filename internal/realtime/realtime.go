// Package realtime pushes inbox changes to users' open clients within a fraction of a
// second, from any API or worker process (docs/decisions.md#realtime): a Bus carries events (ids only)
// between processes over Postgres LISTEN/NOTIFY; each API process's Hub holds its
// connections by app and user and turns events into messages; transports deliver them
// (Socket.IO in package socketio, Server-Sent Events here).
package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/inbox/events"
)

// Options configure the realtime service.
type Options struct {
	// PingInterval and PingTimeout drive heartbeats: a peer silent for both is dead.
	PingInterval, PingTimeout time.Duration
	// Queue is how many messages may wait for one connection before it is closed.
	Queue int
	// TokenTTL is the lifetime of realtime tokens; SecretKey signs them.
	TokenTTL  time.Duration
	SecretKey string
	// PublicURL is the base URL clients reach the API at; empty means the request's own.
	PublicURL string
}

// Service is one process's realtime layer.
type Service struct {
	Bus    Bus
	Hub    *Hub
	Auth   *Authenticator
	Tokens *Tokens
	Opts   Options

	db    *db.DB
	log   *slog.Logger
	ready chan struct{}
	once  sync.Once
}

// New builds the service: the Postgres bus (publishing through d, listening on its own
// connection to databaseURL) and the hub reading through in.
func New(d *db.DB, bus Bus, ap *apps.Service, in *inbox.Service, opts Options, log *slog.Logger) *Service {
	tokens := NewTokens(opts.SecretKey, opts.TokenTTL)
	return &Service{
		Bus:    bus,
		Hub:    NewHub(in, opts.Queue, log),
		Auth:   &Authenticator{Apps: ap, Tokens: tokens, Now: time.Now},
		Tokens: tokens,
		Opts:   opts,
		db:     d,
		log:    log,
		ready:  make(chan struct{}),
	}
}

// Run listens to the bus and feeds the hub until ctx ends, then closes every connection.
// Only API processes run it; workers only publish.
func (s *Service) Run(ctx context.Context) error {
	defer s.Hub.Close()
	return s.Bus.Listen(ctx, func(ev events.Event) { s.Hub.Deliver(ctx, ev) }, func() {
		s.Hub.Resync(ctx)
		s.once.Do(func() { close(s.ready) })
	})
}

// Ready is closed once the listener first listens: from then on no event is missed.
func (s *Service) Ready() <-chan struct{} { return s.ready }

// Grant is an authenticated realtime user, ready to attach.
type Grant struct {
	AppID, UserID int64
	// User is the user identifier.
	User string
}

// Authorize authenticates a client and resolves its user, creating the user when it does
// not exist yet so the first notification it is sent reaches the open connection.
func (s *Service) Authorize(ctx context.Context, cr Credentials) (Grant, error) {
	p, err := s.Auth.Authenticate(ctx, cr)
	if err != nil {
		return Grant{}, err
	}
	userID, err := s.userID(ctx, p.App.ID, p.User)
	if err != nil {
		return Grant{}, err
	}
	return Grant{AppID: p.App.ID, UserID: userID, User: p.User}, nil
}

// Attach registers an authorized connection with the hub (see Hub.Attach).
func (s *Service) Attach(g Grant, onClose func()) (*Client, error) {
	return s.Hub.Attach(g.AppID, g.UserID, g.User, onClose)
}

// userID finds or creates a user of an app.
func (s *Service) userID(ctx context.Context, appID int64, identifier string) (int64, error) {
	if len(identifier) > herald.MaxIdentifierLength {
		return 0, herald.Invalid(fmt.Sprintf("userId must be at most %d characters", herald.MaxIdentifierLength))
	}
	for range 2 {
		u, err := s.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: appID, Identifier: identifier})
		if err == nil {
			return u.ID, nil
		}
		if err = db.MapError(err); herald.ErrorCode(err) != herald.ENOTFOUND {
			return 0, err
		}
		rows, err := s.db.EnsureUsers(ctx, dbsqlc.EnsureUsersParams{AppID: appID, Identifiers: []string{identifier}, Profiles: []json.RawMessage{json.RawMessage(`{}`)}})
		if err != nil {
			return 0, db.MapError(err)
		}
		if len(rows) > 0 {
			return rows[0].ID, nil
		}
		// Created concurrently by another transaction: read it again.
	}
	return 0, herald.Errorf(herald.EUNAVAILABLE, "user %q could not be created", identifier)
}
