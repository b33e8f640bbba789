package channels

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// MaxRouteInstances caps the instances of one route.
const MaxRouteInstances = 10

// Route sends the messages of a channel that match its conditions through its instances,
// in order; with Failover, an instance that fails hands the message to the next.
type Route struct {
	ID          int64       `json:"id"`
	AppID       int64       `json:"appId"`
	Channel     string      `json:"channel"`
	Name        string      `json:"name"`
	InstanceIDs []int64     `json:"providerInstanceIds"`
	Conditions  []Condition `json:"conditions"`
	Failover    bool        `json:"failover"`
	Priority    int         `json:"priority"`
	Enabled     bool        `json:"enabled"`
	CreatedAt   time.Time   `json:"createdAt"`
	UpdatedAt   time.Time   `json:"updatedAt"`
}

// RouteInput creates a route, or changes one (unset fields keep their value).
type RouteInput struct {
	Name        string
	InstanceIDs []int64
	// Conditions is a JSON array of conditions; all must hold for the route to apply.
	Conditions json.RawMessage
	Failover   *bool
	Priority   *int
	Enabled    *bool
}

// CreateRoute adds a route on a channel of the app.
func (s *Service) CreateRoute(ctx context.Context, appID int64, channel string, in RouteInput) (Route, error) {
	var p herald.Problems
	checkChannel(channel, &p)
	name := strings.TrimSpace(in.Name)
	checkName(name, &p)
	conds := parseConditions(in.Conditions, &p)
	if len(in.InstanceIDs) == 0 {
		p.Addf("providerInstanceIds must contain at least 1 element")
	}
	if len(p) == 0 {
		s.checkInstances(ctx, appID, channel, in.InstanceIDs, &p)
	}
	if err := p.Err(); err != nil {
		return Route{}, err
	}
	rawConds, _ := json.Marshal(conds)
	row, err := s.db.CreateRoute(ctx, dbsqlc.CreateRouteParams{
		AppID: appID, Channel: channel, Name: name, InstanceIds: in.InstanceIDs, Conditions: rawConds,
		Failover: deref(in.Failover, true), Priority: int32(deref(in.Priority, 0)), Enabled: deref(in.Enabled, true),
	})
	if err != nil {
		return Route{}, conflict(err, "a route named "+name+" already exists on "+channel)
	}
	return route(row), nil
}

// UpdateRoute changes a route of the app.
func (s *Service) UpdateRoute(ctx context.Context, appID, id int64, in RouteInput) (Route, error) {
	row, err := s.db.GetRoute(ctx, dbsqlc.GetRouteParams{AppID: appID, ID: id})
	if err != nil {
		return Route{}, routeNotFound(err)
	}
	var p herald.Problems
	name := row.Name
	if in.Name != "" {
		name = strings.TrimSpace(in.Name)
		checkName(name, &p)
	}
	conds := row.Conditions
	if len(in.Conditions) > 0 {
		parsed := parseConditions(in.Conditions, &p)
		conds, _ = json.Marshal(parsed)
	}
	ids := row.InstanceIds
	if in.InstanceIDs != nil {
		ids = in.InstanceIDs
		if len(ids) == 0 {
			p.Addf("providerInstanceIds must contain at least 1 element")
		} else if len(p) == 0 {
			s.checkInstances(ctx, appID, row.Channel, ids, &p)
		}
	}
	if err := p.Err(); err != nil {
		return Route{}, err
	}
	row, err = s.db.UpdateRoute(ctx, dbsqlc.UpdateRouteParams{
		AppID: appID, ID: id, Name: name, InstanceIds: ids, Conditions: conds,
		Failover: deref(in.Failover, row.Failover), Priority: int32(deref(in.Priority, int(row.Priority))),
		Enabled: deref(in.Enabled, row.Enabled),
	})
	if err != nil {
		return Route{}, conflict(err, "a route named "+name+" already exists on "+row.Channel)
	}
	return route(row), nil
}

// GetRoute returns a route of the app.
func (s *Service) GetRoute(ctx context.Context, appID, id int64) (Route, error) {
	row, err := s.db.GetRoute(ctx, dbsqlc.GetRouteParams{AppID: appID, ID: id})
	if err != nil {
		return Route{}, routeNotFound(err)
	}
	return route(row), nil
}

// ListRoutes returns the routes of a channel in evaluation order.
func (s *Service) ListRoutes(ctx context.Context, appID int64, channel string) ([]Route, error) {
	rows, err := s.db.ListRoutes(ctx, dbsqlc.ListRoutesParams{AppID: appID, Channel: channel})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := make([]Route, len(rows))
	for i, r := range rows {
		out[i] = route(r)
	}
	return out, nil
}

// DeleteRoute removes a route of the app.
func (s *Service) DeleteRoute(ctx context.Context, appID, id int64) error {
	n, err := s.db.DeleteRoute(ctx, dbsqlc.DeleteRouteParams{AppID: appID, ID: id})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("route")
	}
	return nil
}

// checkInstances verifies that every id is an instance of the app on the channel.
func (s *Service) checkInstances(ctx context.Context, appID int64, channel string, ids []int64, p *herald.Problems) {
	if len(ids) > MaxRouteInstances {
		p.Addf("providerInstanceIds must contain no more than %d elements", MaxRouteInstances)
		return
	}
	found, err := s.db.ProviderInstancesOfChannel(ctx, dbsqlc.ProviderInstancesOfChannelParams{AppID: appID, Channel: channel, Ids: ids})
	if err != nil {
		p.Addf("providerInstanceIds could not be checked")
		return
	}
	seen := map[int64]bool{}
	for _, id := range ids {
		if seen[id] {
			p.Addf("providerInstanceIds must not repeat an instance (%d)", id)
		} else if !slices.Contains(found, id) {
			p.Addf("providerInstanceIds: %d is not a provider instance of this app on %s", id, channel)
		}
		seen[id] = true
	}
}

func route(r dbsqlc.Route) Route {
	var conds []Condition
	_ = json.Unmarshal(r.Conditions, &conds)
	if conds == nil {
		conds = []Condition{}
	}
	return Route{
		ID: r.ID, AppID: r.AppID, Channel: r.Channel, Name: r.Name, InstanceIDs: r.InstanceIds, Conditions: conds,
		Failover: r.Failover, Priority: int(r.Priority), Enabled: r.Enabled, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
}

func routeNotFound(err error) error {
	err = db.MapError(err)
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		return herald.NotFound("route")
	}
	return err
}
