// Package plan compares a folder's resources with an app's and turns the differences
// into the API calls that make the app match: the plan that herald push prints and
// applies, and herald diff shows.
package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/heraldhq/herald/internal/cli/api"
	"github.com/heraldhq/herald/internal/cli/files"
)

// Remote is an app's resources with the ids the API addresses them by.
type Remote struct {
	Set         files.Set
	TemplateIDs map[string]int64
	LayoutIDs   map[string]int64
	CategoryIDs map[string]int64
	// Unpublished are the workflows without a published version.
	Unpublished map[string]bool
}

// Fetch reads an app's resources.
func Fetch(ctx context.Context, c *api.Client, appID int64) (Remote, error) {
	r := Remote{TemplateIDs: map[string]int64{}, LayoutIDs: map[string]int64{}, CategoryIDs: map[string]int64{}, Unpublished: map[string]bool{}}
	tpls, err := c.Templates(ctx, appID)
	if err != nil {
		return r, err
	}
	for _, t := range tpls {
		r.TemplateIDs[t.Identifier] = t.ID
		ft := files.Template{Identifier: t.Identifier, Name: t.Name, Description: t.Description, Contents: map[string]files.Content{}}
		for _, ct := range t.Contents {
			fields := ct.Fields
			if fields == nil {
				fields = map[string]string{}
			}
			ft.Contents[ct.Channel] = files.Content{Fields: fields, Batching: ct.Batching, Layout: ct.LayoutIdentifier}
		}
		if len(t.ContentStates) > 0 {
			ft.States = map[string]string{}
			for _, s := range t.ContentStates {
				ft.States[s.State] = s.Label
			}
		}
		r.Set.Templates = append(r.Set.Templates, ft)
	}
	layouts, err := c.Layouts(ctx, appID)
	if err != nil {
		return r, err
	}
	for _, l := range layouts {
		r.LayoutIDs[l.Identifier] = l.ID
		r.Set.Layouts = append(r.Set.Layouts, files.Layout{Identifier: l.Identifier, Name: l.Name, HTML: l.HTML, Text: l.Text, Default: l.Default})
	}
	trs, err := c.Translations(ctx, appID)
	if err != nil {
		return r, err
	}
	for _, t := range trs {
		r.Set.Translations = append(r.Set.Translations, files.Translation{Locale: t.Locale, Default: t.Default, Entries: t.Entries})
	}
	cats, err := c.Categories(ctx, appID)
	if err != nil {
		return r, err
	}
	for _, cat := range cats {
		r.CategoryIDs[cat.Identifier] = cat.ID
		r.Set.Categories = append(r.Set.Categories, files.Category{Identifier: cat.Identifier, Name: cat.Name,
			Critical: cat.Critical, ChannelDefaults: files.OffChannels(cat.ChannelDefaults)})
	}
	flows, err := c.Workflows(ctx, appID)
	if err != nil {
		return r, err
	}
	for _, f := range flows {
		if f.PublishedVersion == nil {
			r.Unpublished[f.Identifier] = true
		}
		r.Set.Workflows = append(r.Set.Workflows, files.Workflow{Identifier: f.Identifier, Name: f.Name, Critical: f.Critical, Definition: f.Definition, PayloadSchema: schemaOrNil(f.PayloadSchema)})
	}
	r.Set.Sort()
	return r, nil
}

// Step is one change of a plan.
type Step struct {
	// Action is create, update or delete.
	Action string `json:"action"`
	// Kind is template, layout, translation, category or workflow.
	Kind string `json:"kind"`
	Key  string `json:"key"`
	// Detail says what changes (fields, channels).
	Detail string `json:"detail,omitempty"`
	apply  func(ctx context.Context, c *api.Client, appID int64) error
}

// Apply makes the change.
func (s Step) Apply(ctx context.Context, c *api.Client, appID int64) error {
	return s.apply(ctx, c, appID)
}

// Plan is the steps that make an app match a folder, in the order they apply, and what
// a push cannot do.
type Plan struct {
	Steps []Step `json:"steps"`
	// Notes are differences the API offers no way to change (shown, not applied).
	Notes []string `json:"notes,omitempty"`
}

// Make compares the folder's set with the app's. With prune, resources of the app that
// the folder lacks are deleted; without, they are left alone.
func Make(local files.Set, r Remote, prune bool) Plan {
	var p Plan
	rs := r.Set
	// Categories.
	remoteCats := index(rs.Categories, func(c files.Category) string { return c.Identifier })
	for _, c := range local.Categories {
		rc, ok := remoteCats[c.Identifier]
		switch {
		case !ok:
			p.add("create", "category", c.Identifier, "", func(ctx context.Context, cl *api.Client, app int64) error {
				return cl.CreateCategory(ctx, app, apiCategory(c))
			})
		default:
			var what []string
			what = diffField(what, "name", rc.Name != c.Name)
			what = diffField(what, "critical", rc.Critical != c.Critical)
			what = diffField(what, "channelDefaults", !maps.Equal(files.OffChannels(rc.ChannelDefaults), files.OffChannels(c.ChannelDefaults)))
			if len(what) == 0 {
				continue
			}
			id := r.CategoryIDs[c.Identifier]
			p.add("update", "category", c.Identifier, join(what), func(ctx context.Context, cl *api.Client, _ int64) error {
				return cl.UpdateCategory(ctx, id, apiCategory(c))
			})
		}
	}
	// Layouts: the ones that stop being the default first, so the new default stays.
	remoteLayouts := index(rs.Layouts, func(l files.Layout) string { return l.Identifier })
	layouts := slices.Clone(local.Layouts)
	slices.SortStableFunc(layouts, func(a, b files.Layout) int { return boolInt(a.Default) - boolInt(b.Default) })
	for _, l := range layouts {
		if l.Text == "" {
			l.Text = "{{{content}}}"
		}
		if l.Name == "" {
			l.Name = l.Identifier
		}
		rl, ok := remoteLayouts[l.Identifier]
		al := api.Layout{Identifier: l.Identifier, Name: l.Name, HTML: l.HTML, Text: l.Text, Default: l.Default}
		switch {
		case !ok:
			p.add("create", "layout", l.Identifier, "", func(ctx context.Context, cl *api.Client, app int64) error {
				return cl.CreateLayout(ctx, app, al)
			})
		default:
			var what []string
			what = diffField(what, "name", rl.Name != l.Name)
			what = diffField(what, "html", rl.HTML != l.HTML)
			what = diffField(what, "text", rl.Text != l.Text)
			what = diffField(what, "default", rl.Default != l.Default)
			if len(what) > 0 {
				id := r.LayoutIDs[l.Identifier]
				p.add("update", "layout", l.Identifier, join(what), func(ctx context.Context, cl *api.Client, app int64) error {
					return cl.UpdateLayout(ctx, app, id, al)
				})
			}
		}
	}
	// Translations.
	remoteTr := index(rs.Translations, func(t files.Translation) string { return t.Locale })
	for _, t := range local.Translations {
		rt, ok := remoteTr[t.Locale]
		at := api.Translation{Locale: t.Locale, Default: t.Default, Entries: t.Entries}
		if at.Entries == nil {
			at.Entries = map[string]string{}
		}
		put := func(ctx context.Context, cl *api.Client, app int64) error { return cl.PutTranslation(ctx, app, at) }
		switch {
		case !ok:
			p.add("create", "translation", t.Locale, "", put)
		case rt.Default != t.Default || !maps.Equal(rt.Entries, t.Entries):
			var what []string
			what = diffField(what, "default", rt.Default != t.Default)
			what = diffField(what, "entries", !maps.Equal(rt.Entries, t.Entries))
			p.add("update", "translation", t.Locale, join(what), put)
		}
	}
	// Templates.
	remoteTpl := index(rs.Templates, func(t files.Template) string { return t.Identifier })
	for _, t := range local.Templates {
		p.template(t, remoteTpl, r.TemplateIDs)
	}
	// Workflows, after the templates they name.
	remoteFlows := index(rs.Workflows, func(w files.Workflow) string { return w.Identifier })
	for _, w := range local.Workflows {
		rw, ok := remoteFlows[w.Identifier]
		switch {
		case !ok:
			p.add("create", "workflow", w.Identifier, "published", func(ctx context.Context, cl *api.Client, app int64) error {
				if err := cl.CreateWorkflow(ctx, app, w.Identifier, w.Name, w.Critical, w.Definition, w.PayloadSchema); err != nil {
					return err
				}
				return cl.PublishWorkflow(ctx, app, w.Identifier)
			})
		default:
			var what []string
			what = diffField(what, "name", rw.Name != w.Name)
			what = diffField(what, "critical", rw.Critical != w.Critical)
			what = diffField(what, "definition", !sameJSON(rw.Definition, w.Definition))
			what = diffField(what, "payloadSchema", files.HasSchema(rw.PayloadSchema) != files.HasSchema(w.PayloadSchema) ||
				files.HasSchema(w.PayloadSchema) && !sameJSON(rw.PayloadSchema, w.PayloadSchema))
			if len(what) == 0 && !r.Unpublished[w.Identifier] {
				continue
			}
			what = append(what, "published")
			p.add("update", "workflow", w.Identifier, join(what), func(ctx context.Context, cl *api.Client, app int64) error {
				if err := cl.UpdateWorkflow(ctx, app, w.Identifier, w.Name, w.Critical, w.Definition, w.PayloadSchema); err != nil {
					return err
				}
				return cl.PublishWorkflow(ctx, app, w.Identifier)
			})
		}
	}
	p.prune(local, r, prune)
	return p
}

// prune deletes (or, without prune, notes) what the app has and the folder lacks.
func (p *Plan) prune(local files.Set, r Remote, prune bool) {
	rs := r.Set
	has := func(keys []string, k string) bool { return slices.Contains(keys, k) }
	localKeys := func(n int, key func(int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = key(i)
		}
		return out
	}
	tpls := localKeys(len(local.Templates), func(i int) string { return local.Templates[i].Identifier })
	lays := localKeys(len(local.Layouts), func(i int) string { return local.Layouts[i].Identifier })
	cats := localKeys(len(local.Categories), func(i int) string { return local.Categories[i].Identifier })
	trs := localKeys(len(local.Translations), func(i int) string { return local.Translations[i].Locale })
	flows := localKeys(len(local.Workflows), func(i int) string { return local.Workflows[i].Identifier })
	var missing int
	for _, w := range rs.Workflows {
		if !has(flows, w.Identifier) {
			missing++
			if prune {
				id := w.Identifier
				p.add("delete", "workflow", id, "", func(ctx context.Context, cl *api.Client, app int64) error { return cl.DeleteWorkflow(ctx, app, id) })
			}
		}
	}
	for _, t := range rs.Translations {
		if !has(trs, t.Locale) {
			missing++
			if prune {
				p.Notes = append(p.Notes, fmt.Sprintf("translation %s is not in the folder; translations cannot be deleted through the API: remove it in the console", t.Locale))
			}
		}
	}
	for _, t := range rs.Templates {
		if !has(tpls, t.Identifier) {
			missing++
			if prune {
				id := r.TemplateIDs[t.Identifier]
				p.add("delete", "template", t.Identifier, "", func(ctx context.Context, cl *api.Client, _ int64) error { return cl.DeleteTemplate(ctx, id) })
			}
		}
	}
	for _, l := range rs.Layouts {
		if !has(lays, l.Identifier) {
			missing++
			if prune {
				id := r.LayoutIDs[l.Identifier]
				p.add("delete", "layout", l.Identifier, "", func(ctx context.Context, cl *api.Client, app int64) error { return cl.DeleteLayout(ctx, app, id) })
			}
		}
	}
	for _, c := range rs.Categories {
		if !has(cats, c.Identifier) {
			missing++
			if prune {
				id := r.CategoryIDs[c.Identifier]
				p.add("delete", "category", c.Identifier, "", func(ctx context.Context, cl *api.Client, _ int64) error { return cl.DeleteCategory(ctx, id) })
			}
		}
	}
	if missing > 0 && !prune {
		p.Notes = append(p.Notes, fmt.Sprintf("%d resource(s) of the app are not in the folder and stay as they are (--prune deletes them)", missing))
	}
}

func (p *Plan) template(t files.Template, remote map[string]files.Template, ids map[string]int64) {
	name := t.Name
	if name == "" {
		name = t.Identifier
	}
	rt, exists := remote[t.Identifier]
	id := ids[t.Identifier]
	// A new template's id is known once it is created; later steps read it from here.
	idp := &id
	if !exists {
		p.add("create", "template", t.Identifier, "", func(ctx context.Context, cl *api.Client, app int64) error {
			var err error
			*idp, err = cl.CreateTemplate(ctx, app, t.Identifier, name, t.Description)
			return err
		})
		rt = files.Template{Identifier: t.Identifier, Name: name, Description: t.Description}
	} else if rt.Name != name || rt.Description != t.Description {
		var what []string
		what = diffField(what, "name", rt.Name != name)
		what = diffField(what, "description", rt.Description != t.Description)
		p.add("update", "template", t.Identifier, join(what), func(ctx context.Context, cl *api.Client, _ int64) error {
			return cl.UpdateTemplate(ctx, *idp, name, t.Description)
		})
	}
	for _, ch := range slices.Sorted(maps.Keys(t.Contents)) {
		c := t.Contents[ch]
		fields, batching := nonEmpty(c.Fields), c.Batching
		if batching != nil {
			batching = nonEmpty(batching)
		}
		rc, ok := rt.Contents[ch]
		if !ok || !maps.Equal(nonEmpty(rc.Fields), fields) || rc.Layout != c.Layout {
			action := "update"
			if !exists {
				action = "create"
			}
			p.add(action, "template", t.Identifier, ch+" content", func(ctx context.Context, cl *api.Client, _ int64) error {
				return cl.SetContent(ctx, *idp, ch, fields, c.Layout)
			})
		}
		if (batching == nil) != (rc.Batching == nil) || !maps.Equal(batching, nonEmpty(rc.Batching)) {
			if batching == nil && !ok {
				continue
			}
			p.add("update", "template", t.Identifier, ch+" batching content", func(ctx context.Context, cl *api.Client, _ int64) error {
				return cl.SetBatching(ctx, *idp, ch, batching)
			})
		}
	}
	for _, ch := range slices.Sorted(maps.Keys(rt.Contents)) {
		if _, ok := t.Contents[ch]; !ok {
			p.add("delete", "template", t.Identifier, ch+" content", func(ctx context.Context, cl *api.Client, _ int64) error {
				return cl.DeleteContent(ctx, *idp, ch)
			})
		}
	}
	for _, st := range slices.Sorted(maps.Keys(t.States)) {
		label := t.States[st]
		if label == "" {
			label = st
		}
		if rl, ok := rt.States[st]; !ok || rl != label {
			p.add("update", "template", t.Identifier, "state "+st, func(ctx context.Context, cl *api.Client, _ int64) error {
				return cl.SetState(ctx, *idp, st, label)
			})
		}
	}
	for st := range rt.States {
		if _, ok := t.States[st]; !ok {
			p.Notes = append(p.Notes, fmt.Sprintf("template %s: state %s is not in template.json; states cannot be removed through the API", t.Identifier, st))
		}
	}
}

func (p *Plan) add(action, kind, key, detail string, apply func(context.Context, *api.Client, int64) error) {
	p.Steps = append(p.Steps, Step{Action: action, Kind: kind, Key: key, Detail: detail, apply: apply})
}

// apiCategory is a folder's category as the API takes it.
func apiCategory(c files.Category) api.Category {
	return api.Category{Identifier: c.Identifier, Name: c.Name, Critical: c.Critical, ChannelDefaults: c.ChannelDefaults}
}

func index[T any](list []T, key func(T) string) map[string]T {
	out := make(map[string]T, len(list))
	for _, v := range list {
		out[key(v)] = v
	}
	return out
}

func nonEmpty(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

func diffField(what []string, name string, differs bool) []string {
	if differs {
		return append(what, name)
	}
	return what
}

func join(what []string) string {
	out := ""
	for i, w := range what {
		if i > 0 {
			out += ", "
		}
		out += w
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// schemaOrNil is a payload schema, nil when it is missing or null.
func schemaOrNil(raw json.RawMessage) json.RawMessage {
	if !files.HasSchema(raw) {
		return nil
	}
	return raw
}

func sameJSON(a, b json.RawMessage) bool {
	return bytes.Equal(files.Marshal(files.Canonical(a)), files.Marshal(files.Canonical(b)))
}
