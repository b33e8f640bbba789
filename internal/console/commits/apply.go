package commits

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/flow/flowdef"
)

// apply makes an app's configuration equal to a snapshot, inside the caller's transaction.
// Items the snapshot lacks are deleted, except categories, which stay (users' preferences
// hang on them), and provider instances, which are disabled (they hold the app's own
// secrets). Instances keep their secrets, and the destinations they were entered for
// (base URL, host, port, region: see channels.KeepDestinations); one whose configuration
// is incomplete without secrets it lacks here is written disabled. The returned warnings say
// what needs attention.
func apply(ctx context.Context, q *dbsqlc.Queries, ch *channels.Service, appID int64, s Snapshot) ([]string, error) {
	warnings, err := applyCategories(ctx, q, appID, s.Categories)
	if err != nil {
		return nil, err
	}
	if err := applyLayouts(ctx, q, appID, s.Layouts); err != nil {
		return nil, err
	}
	if err := applyTranslations(ctx, q, appID, s.Translations); err != nil {
		return nil, err
	}
	if err := applyTemplates(ctx, q, appID, s.Templates); err != nil {
		return nil, err
	}
	if err := applyWorkflows(ctx, q, appID, s.Workflows); err != nil {
		return nil, err
	}
	w, err := applyChannels(ctx, q, ch, appID, s.ProviderInstances, s.Routes)
	if err != nil {
		return nil, err
	}
	return append(warnings, w...), nil
}

// applyCategories creates and renames categories; those the snapshot lacks stay (users'
// preferences hang on them) and are named in a warning.
func applyCategories(ctx context.Context, q *dbsqlc.Queries, appID int64, cats []Category) ([]string, error) {
	cur, err := q.SnapshotCategories(ctx, appID)
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, c := range cats {
		keep[c.Identifier] = true
		if err := q.ApplyCategory(ctx, dbsqlc.ApplyCategoryParams{AppID: appID, Identifier: c.Identifier, Name: c.Name}); err != nil {
			return nil, err
		}
	}
	warnings := []string{}
	for _, c := range cur {
		if !keep[c.Identifier] {
			warnings = append(warnings, fmt.Sprintf("category %s is not in the commit: kept, with its users' preferences (delete it here if it should go)", c.Identifier))
		}
	}
	return warnings, nil
}

func applyLayouts(ctx context.Context, q *dbsqlc.Queries, appID int64, layouts []Layout) error {
	keep := make([]string, len(layouts))
	def := ""
	for i, l := range layouts {
		keep[i] = l.Identifier
		if l.Default {
			def = l.Identifier
		}
		if err := q.ApplyLayout(ctx, dbsqlc.ApplyLayoutParams{AppID: appID, Identifier: l.Identifier, Name: l.Name, Html: l.HTML, Text: l.Text}); err != nil {
			return err
		}
	}
	if err := q.DeleteLayoutsExcept(ctx, dbsqlc.DeleteLayoutsExceptParams{AppID: appID, Keep: keep}); err != nil {
		return err
	}
	if err := q.ClearDefaultLayoutExcept(ctx, dbsqlc.ClearDefaultLayoutExceptParams{AppID: appID, KeepIdentifier: def}); err != nil {
		return err
	}
	if def == "" {
		return nil
	}
	return q.SetDefaultLayoutByIdentifier(ctx, dbsqlc.SetDefaultLayoutByIdentifierParams{AppID: appID, Identifier: def})
}

func applyTranslations(ctx context.Context, q *dbsqlc.Queries, appID int64, trs []Translation) error {
	keep := make([]string, len(trs))
	def := ""
	for i, t := range trs {
		keep[i] = t.Locale
		if t.Default {
			def = t.Locale
		}
	}
	if err := q.ClearDefaultTranslationExcept(ctx, dbsqlc.ClearDefaultTranslationExceptParams{AppID: appID, KeepLocale: def}); err != nil {
		return err
	}
	for _, t := range trs {
		if err := q.ApplyTranslation(ctx, dbsqlc.ApplyTranslationParams{AppID: appID, Locale: t.Locale, IsDefault: t.Default, Entries: t.Entries}); err != nil {
			return err
		}
	}
	return q.DeleteTranslationsExcept(ctx, dbsqlc.DeleteTranslationsExceptParams{AppID: appID, Keep: keep})
}

func applyTemplates(ctx context.Context, q *dbsqlc.Queries, appID int64, tpls []Template) error {
	keep := make([]string, len(tpls))
	for i, t := range tpls {
		keep[i] = t.Identifier
	}
	if err := q.DeleteTemplatesExcept(ctx, dbsqlc.DeleteTemplatesExceptParams{AppID: appID, Keep: keep}); err != nil {
		return err
	}
	for _, t := range tpls {
		id, err := q.ApplyTemplate(ctx, dbsqlc.ApplyTemplateParams{AppID: appID, Identifier: t.Identifier, Name: t.Name, Description: t.Description})
		if err != nil {
			return err
		}
		chans := make([]string, len(t.Contents))
		for i, c := range t.Contents {
			chans[i] = c.Channel
		}
		if err := q.DeleteTemplateContentsExcept(ctx, dbsqlc.DeleteTemplateContentsExceptParams{AppID: appID, TemplateID: id, Keep: chans}); err != nil {
			return err
		}
		for _, c := range t.Contents {
			if err := q.ApplyTemplateContent(ctx, dbsqlc.ApplyTemplateContentParams{
				AppID: appID, TemplateID: id, Channel: c.Channel, Content: c.Content, BatchingContent: c.Batching,
				LayoutIdentifier: c.Layout, Position: c.Position,
			}); err != nil {
				return err
			}
		}
		states := make([]string, len(t.States))
		for i, st := range t.States {
			states[i] = st.State
		}
		if err := q.DeleteTemplateStatesExcept(ctx, dbsqlc.DeleteTemplateStatesExceptParams{AppID: appID, TemplateID: id, Keep: states}); err != nil {
			return err
		}
		for _, st := range t.States {
			if _, err := q.CreateTemplateContentState(ctx, dbsqlc.CreateTemplateContentStateParams{AppID: appID, TemplateID: id, State: st.State, Label: st.Label}); err != nil {
				return err
			}
		}
	}
	return nil
}

func applyWorkflows(ctx context.Context, q *dbsqlc.Queries, appID int64, flows []Workflow) error {
	// A published definition runs: one that does not compile (a version published before
	// publish compiled) is refused with every problem, and nothing is applied.
	var p herald.Problems
	for _, f := range flows {
		if f.Published == nil {
			continue
		}
		if _, err := flowdef.Compile(f.Published, flowdef.Checker{Channels: herald.Channels}); err != nil {
			var he *herald.Error
			if !errors.As(err, &he) || len(he.Details) == 0 {
				return err
			}
			for _, d := range he.Details {
				p.Addf("workflow %q, published version: %s", f.Identifier, d)
			}
		}
	}
	if err := p.Err(); err != nil {
		return err
	}
	keep := make([]string, len(flows))
	for i, f := range flows {
		keep[i] = f.Identifier
	}
	if err := q.DeleteFlowsExcept(ctx, dbsqlc.DeleteFlowsExceptParams{AppID: appID, Keep: keep}); err != nil {
		return err
	}
	for _, f := range flows {
		id, err := q.ApplyFlow(ctx, dbsqlc.ApplyFlowParams{AppID: appID, Identifier: f.Identifier, Name: f.Name, Draft: f.Draft, PayloadSchema: f.DraftPayloadSchema})
		if err != nil {
			return err
		}
		cur, err := q.GetPublishedFlow(ctx, dbsqlc.GetPublishedFlowParams{AppID: appID, Identifier: f.Identifier})
		has := err == nil
		if err != nil && err != pgx.ErrNoRows {
			return err
		}
		switch {
		// A version is published again when its definition or its payload schema differs.
		case f.Published != nil && (!has || !bytes.Equal(canonical(cur.Definition), canonical(f.Published)) ||
			!bytes.Equal(canonical(nullable(cur.PayloadSchema)), canonical(f.PublishedPayloadSchema))):
			err = q.PublishFlowDefinition(ctx, dbsqlc.PublishFlowDefinitionParams{AppID: appID, ID: id, Definition: f.Published, PayloadSchema: f.PublishedPayloadSchema})
		case f.Published == nil && has:
			err = q.UnpublishFlow(ctx, dbsqlc.UnpublishFlowParams{AppID: appID, ID: id})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func applyChannels(ctx context.Context, q *dbsqlc.Queries, ch *channels.Service, appID int64, insts []Instance, routes []Route) ([]string, error) {
	var warnings []string
	current, err := q.ListProviderInstances(ctx, dbsqlc.ListProviderInstancesParams{AppID: appID})
	if err != nil {
		return nil, err
	}
	stored := make(map[string]dbsqlc.ProviderInstance, len(current))
	for _, r := range current {
		stored[r.Channel+"/"+r.Name] = r
	}
	keep := make([]string, len(insts))
	for i, in := range insts {
		keep[i] = in.Channel + "/" + in.Name
		// The target's secrets stay, so its destinations do too: a commit never moves this
		// app's stored credentials to another server.
		if cur, ok := stored[keep[i]]; ok && cur.Provider == in.Provider && len(cur.SecretsSealed) > 0 {
			var kept []string
			if in.Config, kept = ch.KeepDestinations(in.Provider, cur.Config, in.Config); len(kept) > 0 {
				warnings = append(warnings, fmt.Sprintf("provider instance %s keeps its own %s: its stored secrets are not sent to another destination (change it in this app, entering them again)",
					keep[i], strings.Join(kept, ", ")))
			}
		}
		row, err := q.ApplyProviderInstance(ctx, dbsqlc.ApplyProviderInstanceParams{
			AppID: appID, Channel: in.Channel, Provider: in.Provider, Name: in.Name, Config: in.Config, Enabled: in.Enabled, Priority: in.Priority,
		})
		if err != nil {
			return nil, err
		}
		if probs := ch.StoredProblems(row.Provider, row.Config, row.SecretsSealed); len(probs) > 0 && row.Enabled {
			if _, err := q.SetProviderInstanceEnabled(ctx, dbsqlc.SetProviderInstanceEnabledParams{AppID: appID, ID: row.ID, Enabled: false}); err != nil {
				return nil, err
			}
			warnings = append(warnings, fmt.Sprintf("provider instance %s is disabled until its configuration is completed in this app: %s", keep[i], strings.Join(probs, "; ")))
		}
	}
	off, err := q.DisableProviderInstancesExcept(ctx, dbsqlc.DisableProviderInstancesExceptParams{AppID: appID, Keep: keep})
	if err != nil {
		return nil, err
	}
	for _, o := range off {
		warnings = append(warnings, fmt.Sprintf("provider instance %s/%s is not in the commit: disabled (it keeps its secrets)", o.Channel, o.Name))
	}
	rows, err := q.ListProviderInstances(ctx, dbsqlc.ListProviderInstancesParams{AppID: appID})
	if err != nil {
		return nil, err
	}
	ids := map[string]int64{}
	for _, r := range rows {
		ids[r.Channel+"/"+r.Name] = r.ID
	}
	keepRoutes := make([]string, len(routes))
	for i, r := range routes {
		keepRoutes[i] = r.Channel + "/" + r.Name
	}
	if err := q.DeleteRoutesExcept(ctx, dbsqlc.DeleteRoutesExceptParams{AppID: appID, Keep: keepRoutes}); err != nil {
		return nil, err
	}
	for _, r := range routes {
		var instIDs []int64
		for _, n := range r.Instances {
			if id, ok := ids[r.Channel+"/"+n]; ok {
				instIDs = append(instIDs, id)
			}
		}
		if len(instIDs) == 0 {
			warnings = append(warnings, fmt.Sprintf("route %s/%s names no provider instance of this app: left out", r.Channel, r.Name))
			continue
		}
		if err := q.ApplyRoute(ctx, dbsqlc.ApplyRouteParams{
			AppID: appID, Channel: r.Channel, Name: r.Name, InstanceIds: instIDs, Conditions: r.Conditions,
			Failover: r.Failover, Priority: r.Priority, Enabled: r.Enabled,
		}); err != nil {
			return nil, err
		}
	}
	return warnings, nil
}
