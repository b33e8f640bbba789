// Package check validates a folder of resources (package files) with the rules the server
// applies on save — the same functions: templates.CheckTemplate, CheckContent,
// CheckLayout, CheckTranslation, CheckState, categories.Check and flow.Check (whose
// workflow rules are those of the JSON Schema of workflow files) — plus the references
// between resources a push needs (a content's layout, a workflow's templates). Every
// problem names its file and line.
package check

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/cli/files"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/flow"
)

// Set returns every problem of a set read from folder (nil when the set is valid).
func Set(s files.Set, folder *files.Folder) []files.Problem {
	c := checker{f: folder}
	c.categories(s.Categories)
	layouts := c.layouts(s.Layouts)
	c.translations(s.Translations)
	tpls := map[string]bool{}
	for _, t := range s.Templates {
		tpls[t.Identifier] = true
		c.template(t, layouts)
	}
	for _, w := range s.Workflows {
		c.workflow(w, tpls)
	}
	slices.SortStableFunc(c.probs, func(a, b files.Problem) int {
		if x := strings.Compare(a.File, b.File); x != 0 {
			return x
		}
		return a.Line - b.Line
	})
	return c.probs
}

type checker struct {
	f     *files.Folder
	probs []files.Problem
}

func (c *checker) add(file string, line int, msg string) {
	c.probs = append(c.probs, files.Problem{File: file, Line: line, Message: msg})
}

// lineMsg matches a template parse error "…: line N: message".
var lineMsg = regexp.MustCompile(`^(.*?): line (\d+): (.*)$`)

func (c *checker) categories(list []files.Category) {
	for _, cat := range list {
		body, _ := json.Marshal(map[string]any{"identifier": cat.Identifier, "name": cat.Name, "critical": cat.Critical,
			"channelDefaults": cat.ChannelDefaults})
		for _, m := range categories.Check(body) {
			c.add(files.CategoriesFile, c.f.Line(files.CategoriesFile, cat.Identifier), "category "+strconv.Quote(cat.Identifier)+": "+m)
		}
	}
}

func (c *checker) layouts(list []files.Layout) map[string]bool {
	out := map[string]bool{}
	var defaults []string
	for _, l := range list {
		out[l.Identifier] = true
		if l.Default {
			defaults = append(defaults, l.Identifier)
		}
		meta := files.LayoutMeta(l.Identifier)
		for _, m := range templates.CheckLayout(l.Identifier, l.Name, l.HTML, l.Text) {
			field, _, _ := strings.Cut(m, " ")
			field = strings.TrimSuffix(field, ":")
			switch field {
			case "html", "text":
				file := files.LayoutBody(l.Identifier, field)
				if sub := lineMsg.FindStringSubmatch(m); sub != nil {
					n, _ := strconv.Atoi(sub[2])
					c.add(file, n, sub[3])
				} else {
					c.add(file, 0, m)
				}
			case "identifier":
				c.add(meta, 0, "the file name is the layout's identifier: "+m)
			default:
				c.add(meta, c.f.Line(meta, field), m)
			}
		}
	}
	if len(defaults) > 1 {
		for _, id := range defaults {
			c.add(files.LayoutMeta(id), c.f.Line(files.LayoutMeta(id), "default"), "only one layout can be the default; defaults: "+strings.Join(defaults, ", "))
		}
	}
	return out
}

func (c *checker) translations(list []files.Translation) {
	var defaults []string
	for _, t := range list {
		file := files.TranslationFile(t.Locale)
		if t.Default {
			defaults = append(defaults, t.Locale)
		}
		raw, _ := json.Marshal(t.Entries)
		for _, m := range templates.CheckTranslation(t.Locale, raw) {
			switch {
			case strings.HasPrefix(m, "locale"):
				c.add(file, 0, "the file name is the locale: "+m)
			case strings.HasPrefix(m, "entries."):
				key, _, _ := strings.Cut(strings.TrimPrefix(m, "entries."), " ")
				key = strings.TrimSuffix(key, ":")
				c.add(file, c.f.Line(file, "entries."+key), m)
			default:
				c.add(file, c.f.Line(file, "entries"), m)
			}
		}
	}
	if len(defaults) > 1 {
		for _, l := range defaults {
			file := files.TranslationFile(l)
			c.add(file, c.f.Line(file, "default"), "only one translation can be the default; defaults: "+strings.Join(defaults, ", "))
		}
	}
}

func (c *checker) template(t files.Template, layouts map[string]bool) {
	meta := files.TemplateMeta(t.Identifier)
	for _, m := range templates.CheckTemplate(t.Identifier, t.Name, t.Description) {
		field, _, _ := strings.Cut(m, " ")
		if field == "identifier" {
			c.add(meta, 0, "the folder name is the template's identifier: "+m)
			continue
		}
		c.add(meta, c.f.Line(meta, field), m)
	}
	for state, label := range t.States {
		for _, m := range templates.CheckState(state, label) {
			c.add(meta, c.f.Line(meta, "states."+state), "states."+state+": "+m)
		}
	}
	if len(t.Contents) == 0 {
		c.add(meta, 0, "the template has no content: add a <channel>.json (and its .hbs bodies) next to template.json")
	}
	for ch, content := range t.Contents {
		c.content(t.Identifier, ch, content.Fields, false)
		if content.Batching != nil {
			c.content(t.Identifier, ch, content.Batching, true)
		}
		if content.Layout != "" {
			file := files.ChannelFile(t.Identifier, ch, false)
			switch {
			case ch != "email":
				c.add(file, c.f.Line(file, "layout"), "layout applies to email content only")
			case !layouts[content.Layout]:
				c.add(file, c.f.Line(file, "layout"), fmt.Sprintf("layout %q is not in layouts/ (add layouts/%s.json and its .hbs files)", content.Layout, content.Layout))
			}
		}
	}
}

// content checks one channel's fields, mapping "content.<field> …" to the field's file.
func (c *checker) content(id, ch string, fields map[string]string, batching bool) {
	raw, _ := json.Marshal(fields)
	chFile := files.ChannelFile(id, ch, batching)
	for _, m := range templates.CheckContent(ch, raw) {
		rest, ok := strings.CutPrefix(m, "content.")
		if !ok {
			c.add(chFile, 0, m)
			continue
		}
		field := rest
		if i := strings.IndexAny(rest, " :"); i >= 0 {
			field = rest[:i]
		}
		file := files.FieldFile(id, ch, field, batching)
		if sub := lineMsg.FindStringSubmatch(m); sub != nil && files.IsBodyField(field) {
			n, _ := strconv.Atoi(sub[2])
			c.add(file, n, sub[3])
			continue
		}
		if files.IsBodyField(field) {
			c.add(file, 0, m)
		} else {
			c.add(file, c.f.Line(file, field), m)
		}
	}
}

// stepPath finds the JSON path a workflow problem is about: "steps[2].template: …" →
// "definition.steps[2].template".
var stepPath = regexp.MustCompile(`^(?:definition\.)?(steps\[\d+\](?:\.[A-Za-z]+)?|start\b|steps\b)`)

func (c *checker) workflow(w files.Workflow, tpls map[string]bool) {
	file := files.WorkflowFile(w.Identifier)
	m := map[string]any{"identifier": w.Identifier, "name": w.Name, "definition": w.Definition}
	if files.HasSchema(w.PayloadSchema) {
		m["payloadSchema"] = w.PayloadSchema
	}
	body, _ := json.Marshal(m)
	exists := func(id string) bool { return tpls[id] }
	for _, m := range flow.Check(body, true, exists) {
		switch {
		case strings.HasPrefix(m, "identifier"):
			c.add(file, 0, "the file name is the workflow's identifier: "+m)
		case strings.HasPrefix(m, "name"):
			c.add(file, c.f.Line(file, "name"), m)
		case strings.HasPrefix(m, "payloadSchema"):
			c.add(file, c.f.Line(file, "payloadSchema"), m)
		default:
			if strings.Contains(m, "no template") {
				m += " (templates/ has no such folder)"
			}
			path := "definition"
			if sub := stepPath.FindStringSubmatch(m); sub != nil {
				path += "." + sub[1]
			}
			c.add(file, c.f.Line(file, path), m)
		}
	}
}
