package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Limits of an endpoint's fields.
const (
	maxURL         = 2048
	maxDescription = 500
	maxFilterItems = 50
	maxFilterValue = 100
	// MaxEndpoints is how many endpoints one app may have.
	MaxEndpoints = 20
)

// Service manages the endpoints of apps.
type Service struct {
	db    *db.DB
	box   *secrets.Box
	guard *netguard.Guard
	// Grace is how long a rotated-out secret keeps signing.
	Grace time.Duration
	now   func() time.Time
}

// NewService returns the endpoint service; guard checks every URL at save (and the
// deliverer's client on every connection).
func NewService(d *db.DB, box *secrets.Box, guard *netguard.Guard, grace time.Duration) *Service {
	return &Service{db: d, box: box, guard: guard, Grace: grace, now: time.Now}
}

// Filter narrows the events an endpoint receives; an empty list lets every value through.
type Filter struct {
	Categories []string `json:"categories"`
	Workflows  []string `json:"workflows"`
	Channels   []string `json:"channels"`
}

// Endpoint is an endpoint as the API shows it (never its secret).
type Endpoint struct {
	ID          int64    `json:"id"`
	URL         string   `json:"url"`
	Description string   `json:"description"`
	EventTypes  []string `json:"eventTypes"`
	Filter      Filter   `json:"filter"`
	Enabled     bool     `json:"enabled"`
	Ordered     bool     `json:"ordered"`
	// DisabledReason is "failures" when Herald disabled the endpoint, else "".
	DisabledReason      string     `json:"disabledReason"`
	DisabledAt          *time.Time `json:"disabledAt"`
	ConsecutiveFailures int        `json:"consecutiveFailures"`
	// PreviousSecretUntil is when the secret replaced by the last rotation stops signing.
	PreviousSecretUntil *time.Time `json:"previousSecretUntil"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
}

// WithSecret is an endpoint with its signing secret, answered once: at create and rotate.
type WithSecret struct {
	Endpoint
	Secret string `json:"secret"`
}

func toEndpoint(r dbsqlc.WebhookEndpoint, now time.Time) Endpoint {
	e := Endpoint{ID: r.ID, URL: r.Url, Description: r.Description, EventTypes: r.EventTypes,
		Filter:  Filter{Categories: r.Categories, Workflows: r.Flows, Channels: r.Channels},
		Enabled: r.Enabled, Ordered: r.Ordered, DisabledReason: r.DisabledReason, DisabledAt: r.DisabledAt,
		ConsecutiveFailures: int(r.ConsecutiveFailures), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if r.PreviousUntil != nil && r.PreviousUntil.After(now) {
		e.PreviousSecretUntil = r.PreviousUntil
	}
	return e
}

// input is a create or update body after validation; nil fields were not sent.
type input struct {
	URL, Description *string
	EventTypes       []string
	Filter           *Filter
	Enabled, Ordered *bool
}

// parse validates a body, reporting every problem; create requires url and eventTypes.
func (s *Service) parse(ctx context.Context, body []byte, create bool) (input, error) {
	var in input
	f := jsonshape.Fields(body)
	if f == nil {
		return in, herald.Invalid("body must be a JSON object")
	}
	var p herald.Problems
	if raw, ok := f["url"]; ok || create {
		u, isStr := jsonshape.String(raw)
		switch {
		case !isStr:
			p.Addf("url must be a string")
		case len(u) > maxURL:
			p.Addf("url must be at most %d characters", maxURL)
		default:
			if _, _, err := netguard.SplitURL(u); err != nil {
				p.Addf("url %s", err)
			} else if err := s.guard.CheckURL(ctx, u); err != nil {
				if errors.Is(err, netguard.ErrNotPublic) {
					p.Addf("url: %s", err)
				} else {
					p.Addf("url %s", err)
				}
			}
			in.URL = &u
		}
	}
	if raw, ok := f["description"]; ok {
		d, isStr := jsonshape.String(raw)
		switch {
		case !isStr:
			p.Addf("description must be a string")
		case utf8.RuneCountInString(d) > maxDescription:
			p.Addf("description must be at most %d characters", maxDescription)
		default:
			in.Description = &d
		}
	}
	if raw, ok := f["eventTypes"]; ok || create {
		types, isList := jsonshape.Strings(raw)
		switch {
		case !isList:
			p.Addf("eventTypes must be an array of strings")
		case len(types) == 0:
			p.Addf("eventTypes should not be empty")
		default:
			for _, t := range types {
				if !KnownEventType(t) {
					p.Addf("eventTypes: unknown event type %q (known: %s)", t, strings.Join(EventTypes, ", "))
				}
			}
			slices.Sort(types)
			in.EventTypes = slices.Compact(types)
		}
	}
	if raw, ok := f["filter"]; ok && jsonshape.Kind(raw) != "null" {
		ff := jsonshape.Fields(raw)
		if ff == nil {
			p.Addf("filter must be an object")
		} else {
			flt := Filter{Categories: filterList(ff, "categories", &p), Workflows: filterList(ff, "workflows", &p),
				Channels: filterList(ff, "channels", &p)}
			for _, ch := range flt.Channels {
				if !herald.IsChannel(ch) {
					p.Addf("filter.channels: unknown channel %q (known: %s)", ch, strings.Join(herald.Channels, ", "))
				}
			}
			in.Filter = &flt
		}
	}
	in.Enabled = boolField(f, "enabled", &p)
	in.Ordered = boolField(f, "ordered", &p)
	return in, p.Err()
}

func filterList(f map[string]json.RawMessage, name string, p *herald.Problems) []string {
	raw, ok := f[name]
	if !ok || jsonshape.Kind(raw) == "null" {
		return []string{}
	}
	list, isList := jsonshape.Strings(raw)
	switch {
	case !isList:
		p.Addf("filter.%s must be an array of strings", name)
	case len(list) > maxFilterItems:
		p.Addf("filter.%s must have at most %d items", name, maxFilterItems)
	default:
		for _, v := range list {
			if strings.TrimSpace(v) == "" || len(v) > maxFilterValue {
				p.Addf("filter.%s items must be 1 to %d characters", name, maxFilterValue)
				break
			}
		}
		slices.Sort(list)
		return slices.Compact(list)
	}
	return []string{}
}

func boolField(f map[string]json.RawMessage, name string, p *herald.Problems) *bool {
	raw, ok := f[name]
	if !ok {
		return nil
	}
	var b bool
	if jsonshape.Kind(raw) != "boolean" || json.Unmarshal(raw, &b) != nil {
		p.Addf("%s must be a boolean", name)
		return nil
	}
	return &b
}

// Create adds an endpoint and returns it with its secret, which is never shown again.
func (s *Service) Create(ctx context.Context, appID int64, body []byte) (WithSecret, error) {
	in, err := s.parse(ctx, body, true)
	if err != nil {
		return WithSecret{}, err
	}
	secret := NewSecret()
	flt := Filter{Categories: []string{}, Workflows: []string{}, Channels: []string{}}
	if in.Filter != nil {
		flt = *in.Filter
	}
	var row dbsqlc.WebhookEndpoint
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		list, err := q.ListWebhookEndpoints(ctx, appID)
		if err != nil {
			return err
		}
		if len(list) >= MaxEndpoints {
			return herald.Errorf(herald.EUNPROCESSABLE, "an app may have at most %d webhook endpoints", MaxEndpoints)
		}
		row, err = q.CreateWebhookEndpoint(ctx, dbsqlc.CreateWebhookEndpointParams{
			AppID: appID, Url: *in.URL, Description: deref(in.Description, ""), EventTypes: in.EventTypes,
			Categories: flt.Categories, Flows: flt.Workflows, Channels: flt.Channels,
			Enabled: deref(in.Enabled, true), Ordered: deref(in.Ordered, false), Secret: s.box.Seal([]byte(secret)),
		})
		return err
	})
	if err != nil {
		return WithSecret{}, db.MapError(err)
	}
	return WithSecret{Endpoint: toEndpoint(row, s.now()), Secret: secret}, nil
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// List returns an app's endpoints.
func (s *Service) List(ctx context.Context, appID int64) ([]Endpoint, error) {
	rows, err := s.db.ListWebhookEndpoints(ctx, appID)
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Endpoint, len(rows))
	for i, r := range rows {
		out[i] = toEndpoint(r, s.now())
	}
	return out, nil
}

// Get returns one endpoint of the app.
func (s *Service) Get(ctx context.Context, appID, id int64) (Endpoint, error) {
	r, err := s.db.GetWebhookEndpoint(ctx, dbsqlc.GetWebhookEndpointParams{AppID: appID, ID: id})
	if err != nil {
		return Endpoint{}, notFound(err)
	}
	return toEndpoint(r, s.now()), nil
}

func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return herald.NotFound("webhook endpoint")
	}
	return db.MapError(err)
}

// Update changes the fields the body names; enabling a disabled endpoint clears its
// failure count.
func (s *Service) Update(ctx context.Context, appID, id int64, body []byte) (Endpoint, error) {
	cur, err := s.db.GetWebhookEndpoint(ctx, dbsqlc.GetWebhookEndpointParams{AppID: appID, ID: id})
	if err != nil {
		return Endpoint{}, notFound(err)
	}
	in, err := s.parse(ctx, body, false)
	if err != nil {
		return Endpoint{}, err
	}
	p := dbsqlc.UpdateWebhookEndpointParams{AppID: appID, ID: id, Url: deref(in.URL, cur.Url),
		Description: deref(in.Description, cur.Description), EventTypes: cur.EventTypes,
		Categories: cur.Categories, Flows: cur.Flows, Channels: cur.Channels,
		Ordered: deref(in.Ordered, cur.Ordered), Enabled: deref(in.Enabled, cur.Enabled)}
	if in.EventTypes != nil {
		p.EventTypes = in.EventTypes
	}
	if in.Filter != nil {
		p.Categories, p.Flows, p.Channels = in.Filter.Categories, in.Filter.Workflows, in.Filter.Channels
	}
	r, err := s.db.UpdateWebhookEndpoint(ctx, p)
	if err != nil {
		return Endpoint{}, notFound(err)
	}
	return toEndpoint(r, s.now()), nil
}

// Rotate gives the endpoint a new secret; the old one keeps signing for the grace period.
func (s *Service) Rotate(ctx context.Context, appID, id int64) (WithSecret, error) {
	secret := NewSecret()
	until := s.now().Add(s.Grace)
	r, err := s.db.RotateWebhookSecret(ctx, dbsqlc.RotateWebhookSecretParams{AppID: appID, ID: id,
		Secret: s.box.Seal([]byte(secret)), PreviousUntil: &until})
	if err != nil {
		return WithSecret{}, notFound(err)
	}
	return WithSecret{Endpoint: toEndpoint(r, s.now()), Secret: secret}, nil
}

// Delete removes an endpoint and its delivery log.
func (s *Service) Delete(ctx context.Context, appID, id int64) error {
	n, err := s.db.DeleteWebhookEndpoint(ctx, dbsqlc.DeleteWebhookEndpointParams{AppID: appID, ID: id})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("webhook endpoint")
	}
	return nil
}

// signingSecrets opens the secrets that sign a delivery now: the current one, and the
// previous one during its grace period.
func (s *Service) signingSecrets(r dbsqlc.WebhookEndpoint) ([]string, error) {
	cur, err := s.box.Open(r.Secret)
	if err != nil {
		return nil, fmt.Errorf("webhook endpoint %d: %w", r.ID, err)
	}
	out := []string{string(cur)}
	if len(r.PreviousSecret) > 0 && r.PreviousUntil != nil && r.PreviousUntil.After(s.now()) {
		if prev, err := s.box.Open(r.PreviousSecret); err == nil {
			out = append(out, string(prev))
		}
	}
	return out, nil
}
