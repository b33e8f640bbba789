package clients

import (
	"context"
	"log/slog"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/mailer"
)

// Service manages clients, members, invitations and CLI tokens.
type Service struct {
	db    *db.DB
	mail  mailer.Mailer
	audit *audit.Log
	log   *slog.Logger
	// consoleURL is where invitation links point.
	consoleURL string
	now        func() time.Time
	// Limits caps invitations per client address and per invited address (nil: none).
	Limits *console.Limits
}

// NewService builds the service; invitation emails link to consoleURL, and membership,
// invitation and token changes go to the audit log al.
func NewService(d *db.DB, m mailer.Mailer, al *audit.Log, log *slog.Logger, consoleURL string) *Service {
	return &Service{db: d, mail: m, audit: al, log: log, consoleURL: strings.TrimRight(consoleURL, "/"), now: time.Now}
}

// record writes an event of a client done by the actor, in the transaction of q when given.
func (s *Service) record(ctx context.Context, q *dbsqlc.Queries, a Actor, clientID int64, e audit.Event) error {
	e.ActorID, e.ViaTokenID = a.UserID, a.TokenID
	return s.audit.Client(ctx, q, clientID, e)
}

// Record writes an event of a client done by the actor (for callers outside this package,
// such as secret reveals of apps).
func (s *Service) Record(ctx context.Context, a Actor, clientID int64, e audit.Event) error {
	return s.record(ctx, nil, a, clientID, e)
}

// Client is a client as the API shows it; Role is the caller's role on it.
type Client struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	Role      Role      `json:"role,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func clientOf(r dbsqlc.Client, role Role) Client {
	return Client{ID: r.ID, Name: r.Name, Role: role, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// CheckName records a problem when a client name breaks the rules.
func CheckName(name string, p *herald.Problems) {
	if len(name) > 100 {
		p.Addf("name must be at most 100 characters")
	}
}

// List returns the clients the actor belongs to (a CLI token: its client only).
func (s *Service) List(ctx context.Context, a Actor) ([]Client, error) {
	rows, err := s.db.ListClientsOfUser(ctx, a.UserID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := []Client{}
	for _, r := range rows {
		if a.ViaToken() && r.ID != a.TokenClientID {
			continue
		}
		c := clientOf(dbsqlc.Client{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}, Role(r.Role))
		if a.ViaToken() {
			c.Role = a.TokenRole
		}
		out = append(out, c)
	}
	return out, nil
}

// Create makes a client owned by the actor (console sessions only).
func (s *Service) Create(ctx context.Context, a Actor, name string) (Client, error) {
	if a.ViaToken() {
		return Client{}, herald.Errorf(herald.EFORBIDDEN, "a CLI token cannot create clients")
	}
	var p herald.Problems
	CheckName(name, &p)
	if err := p.Err(); err != nil {
		return Client{}, err
	}
	var c dbsqlc.Client
	err := s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		var err error
		if c, err = q.CreateClient(ctx, name); err != nil {
			return db.MapError(err)
		}
		_, err = q.AddClientUser(ctx, dbsqlc.AddClientUserParams{ClientID: c.ID, ConsoleUserID: a.UserID, Role: string(Owner)})
		return db.MapError(err)
	})
	return clientOf(c, Owner), err
}

// Get returns one client (any member).
func (s *Service) Get(ctx context.Context, a Actor, id int64) (Client, error) {
	role, err := s.Access(ctx, a, id, Viewer)
	if err != nil {
		return Client{}, err
	}
	c, err := s.db.GetClient(ctx, id)
	if err != nil {
		return Client{}, db.MapError(err)
	}
	return clientOf(c, role), nil
}

// Rename changes a client's name (admins).
func (s *Service) Rename(ctx context.Context, a Actor, id int64, name string) (Client, error) {
	role, err := s.Access(ctx, a, id, Admin)
	if err != nil {
		return Client{}, err
	}
	var p herald.Problems
	CheckName(name, &p)
	if err := p.Err(); err != nil {
		return Client{}, err
	}
	c, err := s.db.UpdateClient(ctx, dbsqlc.UpdateClientParams{ID: id, Name: name})
	if err != nil {
		return Client{}, db.MapError(err)
	}
	return clientOf(c, role), nil
}

// DefaultClient returns the actor's client when it has exactly one (or the CLI
// token's), for calls that may omit the client.
func (s *Service) DefaultClient(ctx context.Context, a Actor) (int64, error) {
	if a.ViaToken() {
		return a.TokenClientID, nil
	}
	rows, err := s.db.ListClientsOfUser(ctx, a.UserID)
	if err != nil {
		return 0, db.MapError(err)
	}
	if len(rows) != 1 {
		return 0, herald.Invalid("clientId is required (you belong to several clients, or to none)")
	}
	return rows[0].ID, nil
}
