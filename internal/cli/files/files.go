// Package files maps an app's resources (templates, layouts, translations, categories,
// workflows) to a folder of files and back, in a stable layout made for version control:
// sorted keys, one resource per file or folder, Handlebars bodies in .hbs files, and
// nothing that changes on every pull (no ids, no timestamps).
//
//	categories.json                       {"<identifier>": {"name": …, "critical"?: true, "channelDefaults"?: {"email": false}}}
//	layouts/<identifier>.json             {"name": …, "default": …}
//	layouts/<identifier>.html.hbs         the HTML (with {{{content}}})
//	layouts/<identifier>.text.hbs         the text version
//	translations/<locale>.json            {"default": …, "entries": {…}}
//	templates/<identifier>/template.json  {"name", "description", "states": {state: label}}
//	templates/<identifier>/<channel>.json the channel's short fields (subject, title, icon,
//	                                      url) and, for email, "layout"
//	templates/<identifier>/<channel>.<field>.hbs       a body field (html, text, body, message)
//	templates/<identifier>/<channel>.batching.json     the digest content's short fields
//	templates/<identifier>/<channel>.batching.<field>.hbs
//	workflows/<identifier>.workflow.json  {"$schema", "name", "critical"?, "definition", "payloadSchema"?}
//	workflows/workflow.schema.json        the JSON Schema of workflow files (editor completion)
package files

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/heraldhq/herald/internal/audience/categories"
)

// Set is the resources of an app, as a folder holds them.
type Set struct {
	Templates    []Template
	Layouts      []Layout
	Translations []Translation
	Categories   []Category
	Workflows    []Workflow
}

// Template is a template with its content per channel.
type Template struct {
	Identifier  string
	Name        string
	Description string
	// States maps the in-app content states to their labels.
	States   map[string]string
	Contents map[string]Content
}

// Content is a template's content on one channel.
type Content struct {
	Fields map[string]string
	// Batching is the digest content (nil: none).
	Batching map[string]string
	// Layout names the email layout (empty: the app's default).
	Layout string
}

// Layout is an email layout.
type Layout struct {
	Identifier, Name, HTML, Text string
	Default                      bool
}

// Translation is a locale's strings.
type Translation struct {
	Locale  string
	Default bool
	Entries map[string]string
}

// Category is a notification category: Critical ones ignore opt-outs, and ChannelDefaults
// lists the channels it starts off on (false) for users who never chose.
type Category struct {
	Identifier, Name string
	Critical         bool
	ChannelDefaults  map[string]bool
}

// Workflow is a user-defined workflow's definition; Critical ones ignore opt-outs.
// PayloadSchema is the JSON Schema of the data its sends carry (nil: none).
type Workflow struct {
	Identifier, Name string
	Critical         bool
	Definition       json.RawMessage
	PayloadSchema    json.RawMessage
}

// HasSchema reports whether a workflow's payload schema is set (not missing, not null):
// only then is it written, so folders of workflows without one stay as they were.
func HasSchema(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t != "" && t != "null"
}

// OffChannels keeps the channels of a defaults map that start off: on is every channel's
// default, so only the offs say something (nil when none).
func OffChannels(defaults map[string]bool) map[string]bool {
	return categories.OffChannels(defaults)
}

// Sort orders every list of the set by key, so equal sets render equal files.
func (s *Set) Sort() {
	slices.SortFunc(s.Templates, func(a, b Template) int { return strings.Compare(a.Identifier, b.Identifier) })
	slices.SortFunc(s.Layouts, func(a, b Layout) int { return strings.Compare(a.Identifier, b.Identifier) })
	slices.SortFunc(s.Translations, func(a, b Translation) int { return strings.Compare(a.Locale, b.Locale) })
	slices.SortFunc(s.Categories, func(a, b Category) int { return strings.Compare(a.Identifier, b.Identifier) })
	slices.SortFunc(s.Workflows, func(a, b Workflow) int { return strings.Compare(a.Identifier, b.Identifier) })
}

// bodyFields are the content fields kept in their own .hbs file; the others (subject,
// title, icon, url) sit in the channel's JSON file.
var bodyFields = []string{"html", "text", "body", "message"}

// IsBodyField reports whether a content field is kept in its own .hbs file.
func IsBodyField(f string) bool { return slices.Contains(bodyFields, f) }

// Paths of the layout's fixed files.
const (
	CategoriesFile = "categories.json"
	TemplateFile   = "template.json"
	SchemaFile     = "workflow.schema.json"
	WorkflowSuffix = ".workflow.json"
	// SchemaRef is the $schema of workflow files, relative to them.
	SchemaRef = "./" + SchemaFile
)

// Managed are the top-level entries of the layout; pull rewrites only these.
var Managed = []string{CategoriesFile, "layouts", "translations", "templates", "workflows"}

// Marshal renders v as indented JSON with sorted keys (maps are sorted by encoding/json),
// HTML characters left as they are, and a final newline.
func Marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	return b.Bytes()
}

// Canonical re-renders raw JSON with sorted keys, numbers kept as written.
func Canonical(raw json.RawMessage) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	return v
}

// Render returns the files of a set: path (slash-separated, relative to the folder) →
// content. schema is the JSON Schema of workflow files (nil: not written).
func Render(s Set, schema []byte) map[string][]byte {
	s.Sort()
	out := map[string][]byte{}
	if len(s.Categories) > 0 {
		cats := map[string]any{}
		for _, c := range s.Categories {
			// Only what differs from a plain category is written, so folders pulled before
			// these fields existed stay unchanged.
			m := map[string]any{"name": c.Name}
			if c.Critical {
				m["critical"] = true
			}
			if off := OffChannels(c.ChannelDefaults); len(off) > 0 {
				m["channelDefaults"] = off
			}
			cats[c.Identifier] = m
		}
		out[CategoriesFile] = Marshal(cats)
	}
	for _, l := range s.Layouts {
		base := "layouts/" + l.Identifier
		out[base+".json"] = Marshal(map[string]any{"name": l.Name, "default": l.Default})
		out[base+".html.hbs"] = []byte(l.HTML)
		if l.Text != "" {
			out[base+".text.hbs"] = []byte(l.Text)
		}
	}
	for _, t := range s.Translations {
		entries := t.Entries
		if entries == nil {
			entries = map[string]string{}
		}
		out["translations/"+t.Locale+".json"] = Marshal(map[string]any{"default": t.Default, "entries": entries})
	}
	for _, t := range s.Templates {
		dir := "templates/" + t.Identifier + "/"
		meta := map[string]any{"name": t.Name, "description": t.Description}
		if len(t.States) > 0 {
			meta["states"] = t.States
		}
		out[dir+TemplateFile] = Marshal(meta)
		for ch, c := range t.Contents {
			short := map[string]any{}
			if c.Layout != "" {
				short["layout"] = c.Layout
			}
			renderFields(out, dir+ch, c.Fields, short)
			if c.Batching != nil {
				renderFields(out, dir+ch+".batching", c.Batching, map[string]any{})
			}
		}
	}
	if len(s.Workflows) > 0 && schema != nil {
		out["workflows/"+SchemaFile] = schema
	}
	for _, w := range s.Workflows {
		m := map[string]any{"$schema": SchemaRef, "name": w.Name, "definition": Canonical(w.Definition)}
		if w.Critical {
			m["critical"] = true
		}
		if HasSchema(w.PayloadSchema) {
			m["payloadSchema"] = Canonical(w.PayloadSchema)
		}
		out["workflows/"+w.Identifier+WorkflowSuffix] = Marshal(m)
	}
	return out
}

func renderFields(out map[string][]byte, base string, fields map[string]string, short map[string]any) {
	for f, v := range fields {
		if IsBodyField(f) {
			out[base+"."+f+".hbs"] = []byte(v)
		} else {
			short[f] = v
		}
	}
	out[base+".json"] = Marshal(short)
}
