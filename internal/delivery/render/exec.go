package render

import (
	"encoding/json"
	"html"
	"sort"
	"strconv"
	"strings"
)

// Limits of one execution, so a template cannot make the worker spin or fill memory.
const (
	// DefaultMaxOutput is the largest rendered text, in bytes.
	DefaultMaxOutput = 1 << 20
	// maxSteps bounds the nodes evaluated (nested {{#each}} over large data).
	maxSteps = 1_000_000
)

// Options choose how a template executes.
type Options struct {
	// HTML escapes printed values for an HTML document ({{{raw}}} never escapes).
	HTML bool
	// Translate looks up a translation for {{t "key"}}. A translation may itself hold
	// {{…}} placeholders; a missing one prints the key.
	Translate func(key string) (string, bool)
	// MaxOutput caps the rendered size in bytes; 0 means DefaultMaxOutput.
	MaxOutput int
	// Missing, when set, is told of each reference that printed nothing because the data
	// does not hold it: a {{path}} (or {{t path}}) whose path is absent, and an {{#each}}
	// or {{#with}} without {{else}} over an absent path. A path present with the value
	// null is not missing, and {{#if}}/{{#unless}} never report (testing for absence is
	// their job). Each is reported once per execution. Left nil (delivery), it costs
	// nothing.
	Missing func(Missing)
}

// Missing is a reference to data that the data does not hold.
type Missing struct {
	// Path is where the template looked, from the root of the data, whatever the context
	// it was written in: {{firstName}} inside {{#with user.profile}} is user.profile.firstName.
	// The elements of an {{#each}} are written [*]: data.items[*].name.
	Path string
	// Line is the template line of the reference (of the {{t}} tag for a reference inside
	// a translation).
	Line int
	// Translation is the key of the translation whose text holds the reference, if any.
	Translation string
}

// frame is one context level: the value that paths resolve against, and the @ variables of
// the {{#each}} iteration that pushed it.
type frame struct {
	value any
	vars  map[string]any
	// path is where value sits in the data (see Missing.Path); kept only when
	// Options.Missing is set.
	path string
}

type state struct {
	out         strings.Builder
	opts        Options
	stack       []frame
	steps       int
	translating bool
	// translation and translationLine name the {{t}} being rendered, for Missing.
	translation     string
	translationLine int
	// reported are the Missing already reported: once each per execution, however many
	// {{#each}} iterations meet them.
	reported map[Missing]bool
}

// Execute renders the template against data: JSON-like values (map[string]any, []any,
// string, json.Number, float64, int, int64, bool, nil).
func (t *Template) Execute(data any, opts Options) (string, error) {
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	s := &state{opts: opts, stack: []frame{{value: data}}}
	if err := s.run(t.nodes); err != nil {
		return "", err
	}
	return s.out.String(), nil
}

// Render parses and executes src in one call.
func Render(src string, data any, opts Options) (string, error) {
	t, err := Parse(src)
	if err != nil {
		return "", err
	}
	return t.Execute(data, opts)
}

func (s *state) step() error {
	s.steps++
	if s.steps > maxSteps {
		return &Error{Message: "template does too much work (nested loops over large data)"}
	}
	return nil
}

func (s *state) run(nodes []node) error {
	for _, n := range nodes {
		if err := s.step(); err != nil {
			return err
		}
		var err error
		switch n := n.(type) {
		case textNode:
			err = s.write(n.text)
		case valueNode:
			err = s.value(n)
		case blockNode:
			err = s.block(n)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *state) write(text string) error {
	if s.out.Len()+len(text) > s.opts.MaxOutput {
		return &Error{Message: "rendered text is larger than " + strconv.Itoa(s.opts.MaxOutput) + " bytes"}
	}
	s.out.WriteString(text)
	return nil
}

func (s *state) value(n valueNode) error {
	if n.expr.translate {
		return s.translate(n)
	}
	v, found := s.lookup(n.expr.path)
	if !found {
		s.missing(n.expr.path, n.line)
	}
	text := stringify(v)
	if s.opts.HTML && !n.raw {
		text = html.EscapeString(text)
	}
	return s.write(text)
}

// translate prints a translation, itself rendered as a template in the current context.
func (s *state) translate(n valueNode) error {
	key := ""
	if n.expr.literal != nil {
		key = *n.expr.literal
	} else {
		v, found := s.lookup(n.expr.path)
		if !found {
			s.missing(n.expr.path, n.line)
		}
		key = stringify(v)
	}
	var text string
	found := false
	if s.opts.Translate != nil && !s.translating {
		text, found = s.opts.Translate(key)
	}
	if !found {
		if s.opts.HTML && !n.raw {
			key = html.EscapeString(key)
		}
		return s.write(key)
	}
	if !strings.Contains(text, "{{") {
		return s.write(text)
	}
	t, err := Parse(text)
	if err != nil {
		return &Error{Line: n.line, Message: "translation " + strconv.Quote(key) + ": " + err.Error()}
	}
	s.translating, s.translation, s.translationLine = true, key, n.line
	defer func() { s.translating, s.translation, s.translationLine = false, "", 0 }()
	return s.run(t.nodes)
}

func (s *state) block(n blockNode) error {
	v, found := s.lookup(n.expr.path)
	if !found && len(n.inverse) == 0 && (n.kind == "each" || n.kind == "with") {
		s.missing(n.expr.path, n.line)
	}
	switch n.kind {
	case "if":
		if truthy(v) {
			return s.run(n.body)
		}
		return s.run(n.inverse)
	case "unless":
		if !truthy(v) {
			return s.run(n.body)
		}
		return s.run(n.inverse)
	case "with":
		if !truthy(v) {
			return s.run(n.inverse)
		}
		return s.within(frame{value: v, path: s.pathOf(n.expr.path)}, n.body)
	default: // each
		return s.each(n, v)
	}
}

func (s *state) each(n blockNode, v any) error {
	elem := s.pathOf(n.expr.path)
	if s.opts.Missing != nil {
		elem += "[*]"
	}
	switch c := v.(type) {
	case []any:
		if len(c) == 0 {
			return s.run(n.inverse)
		}
		for i, item := range c {
			vars := map[string]any{"index": i, "first": i == 0, "last": i == len(c)-1}
			if err := s.within(frame{value: item, vars: vars, path: elem}, n.body); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		if len(c) == 0 {
			return s.run(n.inverse)
		}
		keys := make([]string, 0, len(c))
		for k := range c {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			vars := map[string]any{"index": i, "key": k, "first": i == 0, "last": i == len(keys)-1}
			if err := s.within(frame{value: c[k], vars: vars, path: elem}, n.body); err != nil {
				return err
			}
		}
		return nil
	default:
		return s.run(n.inverse)
	}
}

func (s *state) within(f frame, nodes []node) error {
	if err := s.step(); err != nil {
		return err
	}
	s.stack = append(s.stack, f)
	err := s.run(nodes)
	s.stack = s.stack[:len(s.stack)-1]
	return err
}

// lookup looks a path up: @ variables in the nearest iteration, other paths from the
// current context (or ../ levels up, or @root). A missing value is nil, and found is false
// when the data does not hold the path (an absent key or index, or a step into a value
// that is not an object or array); an @ variable outside {{#each}} is not reported.
func (s *state) lookup(p path) (v any, found bool) {
	top := s.frameOf(p)
	if p.data != "" {
		for i := top; i >= 0; i-- {
			if v, ok := s.stack[i].vars[p.data]; ok {
				return v, true
			}
		}
		return nil, true
	}
	cur := s.stack[top].value
	for _, seg := range p.segments {
		switch c := cur.(type) {
		case map[string]any:
			var ok bool
			if cur, ok = c[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// frameOf is the index of the frame a path starts from.
func (s *state) frameOf(p path) int {
	if p.root {
		return 0
	}
	return max(len(s.stack)-1-p.up, 0)
}

// pathOf is where a path points in the data, from the root ("" without Options.Missing).
func (s *state) pathOf(p path) string {
	if s.opts.Missing == nil {
		return ""
	}
	out := s.stack[s.frameOf(p)].path
	for _, seg := range p.segments {
		if out != "" {
			out += "."
		}
		out += seg
	}
	return out
}

// missing reports a reference the data does not hold.
func (s *state) missing(p path, line int) {
	if s.opts.Missing == nil {
		return
	}
	m := Missing{Path: s.pathOf(p), Line: line}
	if s.translating {
		m.Line, m.Translation = s.translationLine, s.translation
	}
	if s.reported[m] {
		return
	}
	if s.reported == nil {
		s.reported = map[Missing]bool{}
	}
	s.reported[m] = true
	s.opts.Missing(m)
}

// truthy follows Handlebars: false, null, "", 0 and [] are false; objects are true.
func truthy(v any) bool {
	switch c := v.(type) {
	case nil:
		return false
	case bool:
		return c
	case string:
		return c != ""
	case json.Number:
		f, err := c.Float64()
		return err != nil || f != 0
	case float64:
		return c != 0
	case int:
		return c != 0
	case int64:
		return c != 0
	case []any:
		return len(c) > 0
	default:
		return true
	}
}

func stringify(v any) string {
	switch c := v.(type) {
	case nil:
		return ""
	case string:
		return c
	case json.Number:
		return c.String()
	case float64:
		return strconv.FormatFloat(c, 'f', -1, 64)
	case int:
		return strconv.Itoa(c)
	case int64:
		return strconv.FormatInt(c, 10)
	case bool:
		return strconv.FormatBool(c)
	default:
		b, err := json.Marshal(c)
		if err != nil {
			return ""
		}
		return string(b)
	}
}

// DecodeJSON decodes raw JSON into the values Execute understands, keeping numbers as
// written (42 stays "42", not "42.0" or "4.2e+01"). Empty input is an empty object.
func DecodeJSON(raw []byte) (any, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
