// Package analytics answers the console's questions about deliveries: the message log
// search, the activity feed of send requests (requests.go), and sent/delivered/failed/skipped/seen/read/clicked counts per app, template and
// channel in daily buckets (UTC). Counts come from aggregates that triggers keep as events
// happen (migration 00074) and that Rollup folds into daily rows; no read scans the log.
package analytics

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Service reads the message log and the delivery counts of apps.
type Service struct {
	db *db.DB
}

// NewService returns a Service.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// TemplateSeries is one template's counts.
type TemplateSeries struct {
	// ID is nil for a template deleted since (its counts stay, under its identifier).
	ID         *int64 `json:"id"`
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	Series
}

// ChannelSeries is one channel's counts.
type ChannelSeries struct {
	Channel string `json:"channel"`
	Series
}

// TemplatesReport is the counts of every template of an app.
type TemplatesReport struct {
	FromDate  time.Time        `json:"fromDate"`
	ToDate    time.Time        `json:"toDate"`
	Templates []TemplateSeries `json:"templates"`
	// WithoutTemplate counts the sends that named no template.
	WithoutTemplate Series `json:"withoutTemplate"`
}

// App returns the app's counts per day of the range.
func (s *Service) App(ctx context.Context, appID int64, r Range) ([]Day, error) {
	rows, err := s.db.AnalyticsByDay(ctx, dbsqlc.AnalyticsByDayParams{AppID: appID, FromDay: pgDate(r.FirstDay()), ToDay: pgDate(r.LastDay())})
	if err != nil {
		return nil, db.MapError(err)
	}
	out := newSeries(r)
	for _, row := range rows {
		out.add("", row.Day, row.Event, row.Count)
	}
	return out.get("").Days, nil
}

// Templates returns the counts of each of the app's templates (those without events
// included, by identifier), then of deleted templates that have counts in the range (by
// identifier), and of sends without one.
func (s *Service) Templates(ctx context.Context, appID int64, r Range) (TemplatesReport, error) {
	list, err := s.db.ListTemplates(ctx, appID)
	if err != nil {
		return TemplatesReport{}, db.MapError(err)
	}
	rows, err := s.db.AnalyticsByTemplate(ctx, dbsqlc.AnalyticsByTemplateParams{AppID: appID, FromDay: pgDate(r.FirstDay()), ToDay: pgDate(r.LastDay())})
	if err != nil {
		return TemplatesReport{}, db.MapError(err)
	}
	by := newSeries(r)
	by.get("")
	for _, t := range list {
		by.get(t.Identifier)
	}
	for _, row := range rows {
		by.add(row.Template, row.Day, row.Event, row.Count)
	}
	out := TemplatesReport{FromDate: r.From, ToDate: r.To, Templates: []TemplateSeries{}, WithoutTemplate: *by.get("")}
	known := map[string]bool{}
	for _, t := range list {
		known[t.Identifier] = true
		out.Templates = append(out.Templates, TemplateSeries{ID: &t.ID, Identifier: t.Identifier, Name: t.Name, Series: *by.get(t.Identifier)})
	}
	gone := slices.Sorted(slices.Values(slices.DeleteFunc(slices.Clone(by.keys), func(k string) bool { return k == "" || known[k] })))
	for _, k := range gone {
		out.Templates = append(out.Templates, TemplateSeries{Identifier: k, Series: *by.get(k)})
	}
	return out, nil
}

// Channels returns the counts of each channel that has events in the range.
func (s *Service) Channels(ctx context.Context, appID int64, r Range) ([]ChannelSeries, error) {
	rows, err := s.db.AnalyticsByChannel(ctx, dbsqlc.AnalyticsByChannelParams{AppID: appID, FromDay: pgDate(r.FirstDay()), ToDay: pgDate(r.LastDay())})
	if err != nil {
		return nil, db.MapError(err)
	}
	by := newSeries(r)
	for _, row := range rows {
		by.add(row.Channel, row.Day, row.Event, row.Count)
	}
	return channelList(by), nil
}

// Template returns one template's counts per day, all channels together.
func (s *Service) Template(ctx context.Context, appID, templateID int64, r Range) (TemplateSeries, error) {
	t, by, err := s.templateByChannel(ctx, appID, templateID, r)
	if err != nil {
		return TemplateSeries{}, err
	}
	all := newSeries(r)
	total := all.get("")
	for _, k := range by.keys {
		ch := by.get(k)
		for i, d := range ch.Days {
			total.Days[i].plus(d.Counts)
		}
		total.Totals.plus(ch.Totals)
	}
	return TemplateSeries{ID: &t.ID, Identifier: t.Identifier, Name: t.Name, Series: *total}, nil
}

// TemplateChannels returns one template's counts per channel.
func (s *Service) TemplateChannels(ctx context.Context, appID, templateID int64, r Range) ([]ChannelSeries, error) {
	_, by, err := s.templateByChannel(ctx, appID, templateID, r)
	if err != nil {
		return nil, err
	}
	return channelList(by), nil
}

func (s *Service) templateByChannel(ctx context.Context, appID, templateID int64, r Range) (dbsqlc.Template, *series, error) {
	t, err := s.template(ctx, appID, templateID)
	if err != nil {
		return t, nil, err
	}
	rows, err := s.db.AnalyticsTemplateByChannel(ctx, dbsqlc.AnalyticsTemplateByChannelParams{AppID: appID, Template: t.Identifier,
		FromDay: pgDate(r.FirstDay()), ToDay: pgDate(r.LastDay())})
	if err != nil {
		return t, nil, db.MapError(err)
	}
	by := newSeries(r)
	for _, row := range rows {
		by.add(row.Channel, row.Day, row.Event, row.Count)
	}
	return t, by, nil
}

// template finds a template of the app by id; other apps' templates are not found.
func (s *Service) template(ctx context.Context, appID, id int64) (dbsqlc.Template, error) {
	t, err := s.db.GetTemplate(ctx, dbsqlc.GetTemplateParams{AppID: appID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return t, herald.NotFound("template")
	}
	return t, db.MapError(err)
}

// channelList orders channels as herald.Channels does (unknown ones last, by name).
func channelList(by *series) []ChannelSeries {
	keys := slices.Clone(by.keys)
	rank := func(ch string) int {
		if i := slices.Index(herald.Channels, ch); i >= 0 {
			return i
		}
		return len(herald.Channels)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return cmp.Compare(a, b)
	})
	out := make([]ChannelSeries, 0, len(keys))
	for _, k := range keys {
		out = append(out, ChannelSeries{Channel: k, Series: *by.get(k)})
	}
	return out
}

// Send is one send (request) of a template with the counts of its messages.
type Send struct {
	RequestID uuid.UUID `json:"requestId"`
	// WorkflowID is the Temporal workflow that carried the send.
	WorkflowID string    `json:"workflowId"`
	CreatedAt  time.Time `json:"createdAt"`
	Counts
}

// SendPage is a page of a template's sends.
type SendPage struct {
	Pagination Pagination `json:"pagination"`
	Data       []Send     `json:"data"`
}

// Pagination places a page of a list.
type Pagination struct {
	TotalCount int64 `json:"totalCount"`
	Page       int   `json:"page"`
	Limit      int   `json:"limit"`
}

// TemplateSends returns a page of the sends of a template made in the range (by their
// first message), newest first, with each one's counts over all days.
func (s *Service) TemplateSends(ctx context.Context, appID, templateID int64, r Range, page, limit int) (SendPage, error) {
	out := SendPage{Pagination: Pagination{Page: page, Limit: limit}, Data: []Send{}}
	t, err := s.template(ctx, appID, templateID)
	if err != nil {
		return out, err
	}
	total, err := s.db.CountAnalyticsSends(ctx, dbsqlc.CountAnalyticsSendsParams{AppID: appID, Template: t.Identifier, FromAt: r.From, ToAt: r.To})
	if err != nil {
		return out, db.MapError(err)
	}
	out.Pagination.TotalCount = total
	rows, err := s.db.ListAnalyticsSends(ctx, dbsqlc.ListAnalyticsSendsParams{AppID: appID, Template: t.Identifier, FromAt: r.From, ToAt: r.To,
		MaxRows: int32(limit), SkipRows: int32((page - 1) * limit)})
	if err != nil {
		return out, db.MapError(err)
	}
	for _, row := range rows {
		out.Data = append(out.Data, Send{RequestID: row.RequestID, WorkflowID: row.WorkflowID, CreatedAt: row.CreatedAt.UTC(), Counts: Counts{
			Sent: row.Sent, Delivered: row.Delivered, Failed: row.Failed, Skipped: row.Skipped, Seen: row.Seen, Read: row.Read, Clicked: row.Clicked,
		}})
	}
	return out, nil
}
