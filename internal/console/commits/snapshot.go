// Package commits treats each app as an environment: it reads an app's configuration as a
// snapshot (templates with their contents and states, layouts, translations, workflows,
// categories, provider instances without their secrets, routes), lists what changed since
// the app's last commit, records commits, and publishes a commit to an app of the same
// client in one transaction.
//
// Changes are found by comparing snapshots, not by logging writes: the services that own
// the configuration stay unaware of commits, and a change made any way (console, API, SQL)
// is seen. The cost is reading the app's configuration when changes are listed or committed,
// which is small next to a console page load.
package commits

import (
	"context"
	"encoding/json"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// Snapshot is an app's configuration. Items are sorted by their keys; ids and timestamps
// are left out so that two apps with the same configuration have equal snapshots.
type Snapshot struct {
	Categories        []Category    `json:"categories"`
	Layouts           []Layout      `json:"layouts"`
	Translations      []Translation `json:"translations"`
	Templates         []Template    `json:"templates"`
	Workflows         []Workflow    `json:"workflows"`
	ProviderInstances []Instance    `json:"providerInstances"`
	Routes            []Route       `json:"routes"`
}

// Category is a category of a snapshot.
type Category struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
}

// Layout is an email layout of a snapshot.
type Layout struct {
	Identifier string `json:"identifier"`
	Name       string `json:"name"`
	HTML       string `json:"html"`
	Text       string `json:"text"`
	Default    bool   `json:"default"`
}

// Translation is a locale's strings.
type Translation struct {
	Locale  string          `json:"locale"`
	Default bool            `json:"default"`
	Entries json.RawMessage `json:"entries"`
}

// Template is a template with its contents and content states.
type Template struct {
	Identifier  string    `json:"identifier"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Contents    []Content `json:"contents"`
	States      []State   `json:"states"`
}

// Content is a template's content on one channel.
type Content struct {
	Channel  string          `json:"channel"`
	Content  json.RawMessage `json:"content"`
	Batching json.RawMessage `json:"batchingContent,omitempty"`
	// Layout is the layout's identifier; empty means the app's default.
	Layout   string `json:"layout,omitempty"`
	Position int32  `json:"position"`
}

// State is a template content state.
type State struct {
	State string `json:"state"`
	Label string `json:"label"`
}

// Workflow is a user-defined workflow: its draft and the definition sends run (none when
// unpublished).
type Workflow struct {
	Identifier string          `json:"identifier"`
	Name       string          `json:"name"`
	Draft      json.RawMessage `json:"draft"`
	Published  json.RawMessage `json:"published,omitempty"`
	// DraftPayloadSchema and PublishedPayloadSchema are the payload schemas of the draft and
	// of the published version (none: left out; snapshots made before schemas have neither).
	DraftPayloadSchema     json.RawMessage `json:"draftPayloadSchema,omitempty"`
	PublishedPayloadSchema json.RawMessage `json:"publishedPayloadSchema,omitempty"`
}

// Instance is a provider instance's settings: its configuration without the secret fields
// (each environment keeps its own credentials).
type Instance struct {
	Channel  string          `json:"channel"`
	Name     string          `json:"name"`
	Provider string          `json:"provider"`
	Config   json.RawMessage `json:"config"`
	Enabled  bool            `json:"enabled"`
	Priority int32           `json:"priority"`
}

// Route is a route, naming its instances by name (ids differ between apps).
type Route struct {
	Channel    string          `json:"channel"`
	Name       string          `json:"name"`
	Instances  []string        `json:"providerInstances"`
	Conditions json.RawMessage `json:"conditions"`
	Failover   bool            `json:"failover"`
	Priority   int32           `json:"priority"`
	Enabled    bool            `json:"enabled"`
}

// Capture reads an app's configuration.
func Capture(ctx context.Context, q *dbsqlc.Queries, appID int64) (Snapshot, error) {
	var s Snapshot
	err := capture(ctx, q, appID, &s)
	return s, db.MapError(err)
}

func capture(ctx context.Context, q *dbsqlc.Queries, appID int64, s *Snapshot) error {
	cats, err := q.SnapshotCategories(ctx, appID)
	if err != nil {
		return err
	}
	s.Categories = make([]Category, len(cats))
	for i, c := range cats {
		s.Categories[i] = Category{Identifier: c.Identifier, Name: c.Name}
	}
	layouts, err := q.ListLayouts(ctx, appID)
	if err != nil {
		return err
	}
	s.Layouts = make([]Layout, len(layouts))
	for i, l := range layouts {
		s.Layouts[i] = Layout{Identifier: l.Identifier, Name: l.Name, HTML: l.Html, Text: l.Text, Default: l.IsDefault}
	}
	trs, err := q.SnapshotTranslations(ctx, appID)
	if err != nil {
		return err
	}
	s.Translations = make([]Translation, len(trs))
	for i, t := range trs {
		s.Translations[i] = Translation{Locale: t.Locale, Default: t.IsDefault, Entries: t.Entries}
	}
	if err := captureTemplates(ctx, q, appID, s); err != nil {
		return err
	}
	flows, err := q.SnapshotFlows(ctx, appID)
	if err != nil {
		return err
	}
	s.Workflows = make([]Workflow, len(flows))
	for i, f := range flows {
		s.Workflows[i] = Workflow{Identifier: f.Identifier, Name: f.Name, Draft: f.Draft, Published: nullable(f.Published),
			DraftPayloadSchema: nullable(f.DraftPayloadSchema), PublishedPayloadSchema: nullable(f.PublishedPayloadSchema)}
	}
	return captureChannels(ctx, q, appID, s)
}

func captureTemplates(ctx context.Context, q *dbsqlc.Queries, appID int64, s *Snapshot) error {
	tpls, err := q.ListTemplates(ctx, appID)
	if err != nil {
		return err
	}
	contents, err := q.SnapshotTemplateContents(ctx, appID)
	if err != nil {
		return err
	}
	states, err := q.SnapshotTemplateStates(ctx, appID)
	if err != nil {
		return err
	}
	s.Templates = make([]Template, len(tpls))
	index := map[string]*Template{}
	for i, t := range tpls {
		s.Templates[i] = Template{Identifier: t.Identifier, Name: t.Name, Description: t.Description, Contents: []Content{}, States: []State{}}
		index[t.Identifier] = &s.Templates[i]
	}
	for _, c := range contents {
		if t := index[c.TemplateIdentifier]; t != nil {
			layout := ""
			if c.LayoutIdentifier != nil {
				layout = *c.LayoutIdentifier
			}
			t.Contents = append(t.Contents, Content{Channel: c.Channel, Content: c.Content, Batching: nullable(c.BatchingContent), Layout: layout, Position: c.Position})
		}
	}
	for _, st := range states {
		if t := index[st.TemplateIdentifier]; t != nil {
			t.States = append(t.States, State{State: st.State, Label: st.Label})
		}
	}
	return nil
}

func captureChannels(ctx context.Context, q *dbsqlc.Queries, appID int64, s *Snapshot) error {
	insts, err := q.ListProviderInstances(ctx, dbsqlc.ListProviderInstancesParams{AppID: appID})
	if err != nil {
		return err
	}
	names := map[int64]string{}
	s.ProviderInstances = make([]Instance, len(insts))
	for i, in := range insts {
		names[in.ID] = in.Name
		// config holds only the public fields: secrets live sealed in another column.
		s.ProviderInstances[i] = Instance{Channel: in.Channel, Name: in.Name, Provider: in.Provider, Config: in.Config, Enabled: in.Enabled, Priority: in.Priority}
	}
	sortBy(s.ProviderInstances, func(i Instance) string { return i.Channel + "/" + i.Name })
	routes, err := q.SnapshotRoutes(ctx, appID)
	if err != nil {
		return err
	}
	s.Routes = make([]Route, len(routes))
	for i, r := range routes {
		ids := make([]string, 0, len(r.InstanceIds))
		for _, id := range r.InstanceIds {
			if n, ok := names[id]; ok {
				ids = append(ids, n)
			}
		}
		s.Routes[i] = Route{Channel: r.Channel, Name: r.Name, Instances: ids, Conditions: r.Conditions, Failover: r.Failover, Priority: r.Priority, Enabled: r.Enabled}
	}
	return nil
}

// nullable drops a JSON null.
func nullable(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}
