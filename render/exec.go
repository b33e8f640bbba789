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
}

// frame is one context level: the value that paths resolve against, and the @ variables of
// the {{#each}} iteration that pushed it.
type frame struct {
	value any
	vars  map[string]any
}

type state struct {
	out         strings.Builder
	opts        Options
	stack       []frame
	steps       int
	translating bool
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
	text := stringify(s.resolve(n.expr.path))
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
		key = stringify(s.resolve(n.expr.path))
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
	s.translating = true
	defer func() { s.translating = false }()
	return s.run(t.nodes)
}

func (s *state) block(n blockNode) error {
	v := s.resolve(n.expr.path)
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
		return s.within(frame{value: v}, n.body)
	default: // each
		return s.each(n, v)
	}
}

func (s *state) each(n blockNode, v any) error {
	switch c := v.(type) {
	case []any:
		if len(c) == 0 {
			return s.run(n.inverse)
		}
		for i, item := range c {
			vars := map[string]any{"index": i, "first": i == 0, "last": i == len(c)-1}
			if err := s.within(frame{value: item, vars: vars}, n.body); err != nil {
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
			if err := s.within(frame{value: c[k], vars: vars}, n.body); err != nil {
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

// resolve looks a path up: @ variables in the nearest iteration, other paths from the
// current context (or ../ levels up, or @root). A missing value is nil.
func (s *state) resolve(p path) any {
	top := len(s.stack) - 1 - p.up
	if top < 0 {
		top = 0
	}
	if p.data != "" {
		for i := top; i >= 0; i-- {
			if v, ok := s.stack[i].vars[p.data]; ok {
				return v
			}
		}
		return nil
	}
	cur := s.stack[top].value
	if p.root {
		cur = s.stack[0].value
	}
	for _, seg := range p.segments {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
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
