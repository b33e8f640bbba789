package files

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Problem is something wrong in a file: its path (slash-separated, relative to the
// folder), its line (0 when it is about the whole file) and what to fix.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// String formats the problem as file:line: message, the way compilers do.
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return p.File + ": " + p.Message
}

// Folder is a folder read into a set: the raw files, to find the lines problems are on.
type Folder struct {
	Files map[string][]byte
	lines map[string]map[string]int
}

// Line returns the line of a JSON path in a file of the folder (see LineOf).
func (f *Folder) Line(file, jsonPath string) int {
	if f == nil {
		return 0
	}
	if f.lines == nil {
		f.lines = map[string]map[string]int{}
	}
	l, ok := f.lines[file]
	if !ok {
		l = KeyLines(f.Files[file])
		f.lines[file] = l
	}
	return LineOf(l, jsonPath)
}

// Paths of a set's files, for problems.

// TemplateMeta is the path of a template's template.json.
func TemplateMeta(id string) string { return "templates/" + id + "/" + TemplateFile }

// ChannelFile is the JSON file of a template's channel (batching: of its digest content).
func ChannelFile(id, channel string, batching bool) string {
	if batching {
		return "templates/" + id + "/" + channel + ".batching.json"
	}
	return "templates/" + id + "/" + channel + ".json"
}

// FieldFile is the file holding a content field: its own .hbs for body fields, else the
// channel's JSON file.
func FieldFile(id, channel, field string, batching bool) string {
	if !IsBodyField(field) {
		return ChannelFile(id, channel, batching)
	}
	b := "templates/" + id + "/" + channel
	if batching {
		b += ".batching"
	}
	return b + "." + field + ".hbs"
}

// LayoutMeta is the JSON file of a layout.
func LayoutMeta(id string) string { return "layouts/" + id + ".json" }

// LayoutBody is the file of a layout's html or text.
func LayoutBody(id, field string) string { return "layouts/" + id + "." + field + ".hbs" }

// TranslationFile is the file of a locale's strings.
func TranslationFile(locale string) string { return "translations/" + locale + ".json" }

// WorkflowFile is the file of a workflow.
func WorkflowFile(id string) string { return "workflows/" + id + WorkflowSuffix }

// Read reads a folder into a set. Files that cannot be read as their kind are problems;
// the rest is returned, so every problem of a folder is found in one run.
func Read(dir string) (Set, *Folder, []Problem, error) {
	f := &Folder{Files: map[string][]byte{}}
	for _, top := range Managed {
		p := filepath.Join(dir, top)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		err := filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, name)
			b, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			f.Files[filepath.ToSlash(rel)] = b
			return nil
		})
		if err != nil {
			return Set{}, nil, nil, err
		}
	}
	s, probs := Parse(f)
	return s, f, probs, nil
}

// Parse builds a set from a folder's files.
func Parse(f *Folder) (Set, []Problem) {
	r := reader{f: f, channels: map[string]bool{}}
	var s Set
	names := make([]string, 0, len(f.Files))
	for n := range f.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	layouts := map[string]*Layout{}
	templates := map[string]*Template{}
	for _, n := range names {
		switch {
		case n == CategoriesFile:
			s.Categories = r.categories(n)
		case strings.HasPrefix(n, "layouts/"):
			r.layout(n, layouts)
		case strings.HasPrefix(n, "translations/"):
			if t, ok := r.translation(n); ok {
				s.Translations = append(s.Translations, t)
			}
		case strings.HasPrefix(n, "templates/"):
			r.templateFile(n, templates)
		case strings.HasPrefix(n, "workflows/"):
			if w, ok := r.workflow(n); ok {
				s.Workflows = append(s.Workflows, w)
			}
		}
	}
	for id, l := range layouts {
		if l.Name == "\x00" {
			r.add(LayoutMeta(id), 0, "missing: a layout needs %s (name, default) next to its .hbs files", LayoutMeta(id))
			continue
		}
		s.Layouts = append(s.Layouts, *l)
	}
	for id, t := range templates {
		if t.Name == "\x00" {
			r.add(TemplateMeta(id), 0, "missing: every template folder needs a template.json (name, description)")
			continue
		}
		for ch := range t.Contents {
			if !r.channels[id+"/"+ch] {
				r.add(ChannelFile(id, ch, false), 0, "missing: the %s content's files need %s", ch, ChannelFile(id, ch, false))
				delete(t.Contents, ch)
			}
		}
		s.Templates = append(s.Templates, *t)
	}
	s.Sort()
	slices.SortStableFunc(r.probs, func(a, b Problem) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	return s, r.probs
}

type reader struct {
	f     *Folder
	probs []Problem
	// channels are the "<template>/<channel>" whose JSON file was read.
	channels map[string]bool
}

func (r *reader) add(file string, line int, format string, args ...any) {
	r.probs = append(r.probs, Problem{File: file, Line: line, Message: fmt.Sprintf(format, args...)})
}

// decode reads a JSON file strictly into v, reporting syntax errors, wrong types and
// unknown fields with their lines.
func (r *reader) decode(name string, v any, what string) bool {
	data := r.f.Files[name]
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return true
	}
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te):
		r.add(name, SyntaxLine(data, err), "%s must be %s (%s)", fieldName(te.Field), kindOf(te.Type.String()), what)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		key := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		r.add(name, r.f.Line(name, key), "unknown field %q (%s)", key, what)
	case errors.Is(err, errEOF(err)):
		r.add(name, 0, "empty file: expected %s", what)
	default:
		r.add(name, SyntaxLine(data, err), "not valid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return false
}

func errEOF(err error) error {
	if err != nil && err.Error() == "EOF" {
		return err
	}
	return errors.New("not EOF")
}

func fieldName(f string) string {
	if f == "" {
		return "the file"
	}
	return f
}

func kindOf(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "map["), strings.HasPrefix(goType, "struct"), strings.HasPrefix(goType, "files."):
		return "an object"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	}
	return "a " + goType
}

func (r *reader) categories(name string) []Category {
	var m map[string]struct {
		Name            string          `json:"name"`
		Critical        bool            `json:"critical"`
		ChannelDefaults map[string]bool `json:"channelDefaults"`
	}
	if !r.decode(name, &m, `{"<identifier>": {"name": "…", "critical": false, "channelDefaults": {"email": false}}}`) {
		return nil
	}
	out := make([]Category, 0, len(m))
	for id, c := range m {
		out = append(out, Category{Identifier: id, Name: c.Name, Critical: c.Critical, ChannelDefaults: OffChannels(c.ChannelDefaults)})
	}
	return out
}

var layoutFile = regexp.MustCompile(`^layouts/([^/]+?)(\.json|\.html\.hbs|\.text\.hbs)$`)

func (r *reader) layout(name string, all map[string]*Layout) {
	m := layoutFile.FindStringSubmatch(name)
	if m == nil {
		r.unexpected(name, "layouts/<identifier>.json, .html.hbs or .text.hbs")
		return
	}
	l := all[m[1]]
	if l == nil {
		l = &Layout{Identifier: m[1], Name: "\x00"}
		all[m[1]] = l
	}
	switch m[2] {
	case ".json":
		var meta struct {
			Name    string `json:"name"`
			Default bool   `json:"default"`
		}
		if r.decode(name, &meta, `{"name": "…", "default": false}`) {
			l.Name, l.Default = meta.Name, meta.Default
		} else {
			l.Name = ""
		}
	case ".html.hbs":
		l.HTML = string(r.f.Files[name])
	case ".text.hbs":
		l.Text = string(r.f.Files[name])
	}
}

func (r *reader) unexpected(name, want string) {
	ext := path.Ext(name)
	if ext == ".json" || ext == ".hbs" {
		r.add(name, 0, "unexpected file: expected %s", want)
	}
}

func (r *reader) translation(name string) (Translation, bool) {
	locale, ok := strings.CutSuffix(strings.TrimPrefix(name, "translations/"), ".json")
	if !ok || strings.Contains(locale, "/") {
		r.unexpected(name, "translations/<locale>.json")
		return Translation{}, false
	}
	var t struct {
		Default bool            `json:"default"`
		Entries json.RawMessage `json:"entries"`
	}
	if !r.decode(name, &t, `{"default": false, "entries": {"key": "text"}}`) {
		return Translation{}, false
	}
	out := Translation{Locale: locale, Default: t.Default}
	if len(t.Entries) == 0 {
		r.add(name, 0, `entries should not be empty: {"default": false, "entries": {"key": "text"}}`)
		return Translation{}, false
	}
	if err := json.Unmarshal(t.Entries, &out.Entries); err != nil {
		// The server's check reports each wrongly typed entry; keep the strings.
		var raw map[string]json.RawMessage
		if json.Unmarshal(t.Entries, &raw) != nil {
			r.add(name, r.f.Line(name, "entries"), "entries must be an object of strings")
			return Translation{}, false
		}
		out.Entries = map[string]string{}
		for k, v := range raw {
			var s string
			if json.Unmarshal(v, &s) != nil {
				r.add(name, r.f.Line(name, "entries."+k), "entries.%s must be a string", k)
				continue
			}
			out.Entries[k] = s
		}
	}
	return out, true
}

var templatePart = regexp.MustCompile(`^templates/([^/]+)/([A-Za-z]+)(\.batching)?(?:\.([a-z]+)\.hbs|\.json)$`)

func (r *reader) templateFile(name string, all map[string]*Template) {
	rest := strings.TrimPrefix(name, "templates/")
	id, file, ok := strings.Cut(rest, "/")
	if !ok || strings.Contains(file, "/") {
		r.unexpected(name, "templates/<identifier>/<file>")
		return
	}
	t := all[id]
	if t == nil {
		t = &Template{Identifier: id, Name: "\x00", Contents: map[string]Content{}}
		all[id] = t
	}
	if file == TemplateFile {
		var meta struct {
			Name        string            `json:"name"`
			Description string            `json:"description"`
			States      map[string]string `json:"states"`
		}
		if r.decode(name, &meta, `{"name": "…", "description": "…", "states": {"state": "label"}}`) {
			t.Name, t.Description, t.States = meta.Name, meta.Description, meta.States
		} else {
			t.Name = ""
		}
		return
	}
	m := templatePart.FindStringSubmatch(name)
	if m == nil {
		r.unexpected(name, "template.json, <channel>.json, <channel>.<field>.hbs, <channel>.batching.json or <channel>.batching.<field>.hbs")
		return
	}
	ch, batching, field := m[2], m[3] != "", m[4]
	c := t.Contents[ch]
	target := &c.Fields
	if batching {
		target = &c.Batching
	}
	if field != "" {
		if !IsBodyField(field) {
			r.add(name, 0, "%s is not a body field: body files are %s; put %s in %s", field, strings.Join(bodyFields, ", "), field, ChannelFile(id, ch, batching))
			return
		}
		if *target == nil {
			*target = map[string]string{}
		}
		(*target)[field] = string(r.f.Files[name])
		t.Contents[ch] = c
		return
	}
	if !batching {
		r.channels[id+"/"+ch] = true
	}
	var short map[string]json.RawMessage
	if !r.decode(name, &short, `{"subject": "…"} (short fields; bodies go in .hbs files)`) {
		if *target == nil {
			*target = map[string]string{}
		}
		t.Contents[ch] = c
		return
	}
	if *target == nil {
		*target = map[string]string{}
	}
	for k, v := range short {
		var s string
		if json.Unmarshal(v, &s) != nil {
			r.add(name, r.f.Line(name, k), "%s must be a string", k)
			continue
		}
		switch {
		case k == "layout" && !batching:
			c.Layout = s
		case IsBodyField(k):
			r.add(name, r.f.Line(name, k), "%s belongs in its own file %s", k, FieldFile(id, ch, k, batching))
		default:
			(*target)[k] = s
		}
	}
	t.Contents[ch] = c
}

func (r *reader) workflow(name string) (Workflow, bool) {
	base := strings.TrimPrefix(name, "workflows/")
	if base == SchemaFile {
		return Workflow{}, false
	}
	id, ok := strings.CutSuffix(base, WorkflowSuffix)
	if !ok || strings.Contains(id, "/") {
		r.unexpected(name, "workflows/<identifier>.workflow.json")
		return Workflow{}, false
	}
	var w struct {
		Schema     string          `json:"$schema"`
		Name       string          `json:"name"`
		Critical   bool            `json:"critical"`
		Definition json.RawMessage `json:"definition"`
		// PayloadSchema is the JSON Schema of the workflow's data (left out: none).
		PayloadSchema json.RawMessage `json:"payloadSchema"`
	}
	if !r.decode(name, &w, `{"name": "…", "critical": false, "definition": {"steps": […]}}`) {
		return Workflow{}, false
	}
	var schema json.RawMessage
	if HasSchema(w.PayloadSchema) {
		schema = w.PayloadSchema
	}
	return Workflow{Identifier: id, Name: w.Name, Critical: w.Critical, Definition: w.Definition, PayloadSchema: schema}, true
}
