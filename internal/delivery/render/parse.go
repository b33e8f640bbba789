// Package render is Herald's template language: the Handlebars subset notification
// templates use, with escaping chosen by the caller (HTML for email bodies, none for SMS,
// push and chat). It supports {{path}}, {{{raw}}}, {{#if}}/{{#unless}}/{{else}},
// {{#each}} with @index/@key/@first/@last, {{#with}}, ../ and @root paths, comments,
// whitespace control ({{~ ~}}), \{{ for a literal brace, and the {{t "key"}} translation
// helper. Templates are data, not code: there are no partials, no custom helpers, and
// execution is bounded in output size and steps.
//
// Why not a Handlebars library: the maintained Go port (mailgun/raymond) always HTML-escapes
// {{x}}, which corrupts SMS and push text containing & or <, and it resolves helpers from a
// process-wide registry; both are wrong for a multi-tenant service.
package render

import (
	"fmt"
	"strconv"
	"strings"
)

// maxDepth bounds block nesting.
const maxDepth = 32

// Template is a parsed template, safe for concurrent use.
type Template struct {
	nodes []node
}

type node interface{ isNode() }

type textNode struct{ text string }

// valueNode prints a path, or the result of the t helper.
type valueNode struct {
	expr expr
	raw  bool
	line int
}

type blockNode struct {
	kind    string // if, unless, each, with
	expr    expr
	body    []node
	inverse []node
	line    int
}

func (textNode) isNode()  {}
func (valueNode) isNode() {}
func (blockNode) isNode() {}

// expr is a path or a call of the t helper with one argument.
type expr struct {
	path      path
	translate bool
	// literal is the argument of t when it is a string literal.
	literal *string
}

// path is a reference into the data: up levels of ../, then segments. data names an @
// variable (@index, @key, @first, @last); root is @root.
type path struct {
	up       int
	root     bool
	data     string
	segments []string
}

// Error is a template that does not parse, or one whose execution went over a limit.
type Error struct {
	Line    int
	Message string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Message)
	}
	return e.Message
}

// Parse parses a template.
func Parse(src string) (*Template, error) {
	p := &parser{src: src, line: 1}
	nodes, closer, err := p.parseUntil(0)
	if err != nil {
		return nil, err
	}
	if closer != nil {
		return nil, p.errorf(closer.line, "{{%s}} has no matching block to close", closer.raw)
	}
	return &Template{nodes: nodes}, nil
}

// MustParse parses a template known to be valid; it panics otherwise.
func MustParse(src string) *Template {
	t, err := Parse(src)
	if err != nil {
		panic("render: " + err.Error())
	}
	return t
}

type parser struct {
	src  string
	pos  int
	line int
	// trimNext removes leading whitespace from the next text (a preceding ~}}).
	trimNext bool
}

// tag is one {{…}} found by the scanner.
type tag struct {
	raw        string // the inside, without braces and ~
	triple     bool
	line       int
	trimBefore bool
}

// closer is the tag that ended a sequence of nodes: {{else}} or {{/name}}.
type closer struct {
	raw  string
	line int
	name string // for {{/name}}
	els  bool
}

func (p *parser) errorf(line int, format string, args ...any) error {
	return &Error{Line: line, Message: fmt.Sprintf(format, args...)}
}

// parseUntil reads nodes up to the end, an {{else}} or a {{/…}}, which it returns.
func (p *parser) parseUntil(depth int) ([]node, *closer, error) {
	var nodes []node
	for {
		text, t, err := p.next()
		if err != nil {
			return nil, nil, err
		}
		if text != "" {
			nodes = append(nodes, textNode{text: text})
		}
		if t == nil {
			return nodes, nil, nil
		}
		if t.trimBefore && len(nodes) > 0 {
			if tn, ok := nodes[len(nodes)-1].(textNode); ok {
				tn.text = strings.TrimRight(tn.text, " \t\r\n")
				nodes[len(nodes)-1] = tn
			}
		}
		inner := strings.TrimSpace(t.raw)
		switch {
		case strings.HasPrefix(inner, "!"):
			continue
		case t.triple:
			e, err := p.parseExpr(inner, t.line)
			if err != nil {
				return nil, nil, err
			}
			nodes = append(nodes, valueNode{expr: e, raw: true, line: t.line})
		case strings.HasPrefix(inner, "#"):
			if depth >= maxDepth {
				return nil, nil, p.errorf(t.line, "blocks are nested more than %d deep", maxDepth)
			}
			b, err := p.parseBlock(inner[1:], t.line, depth)
			if err != nil {
				return nil, nil, err
			}
			nodes = append(nodes, b)
		case strings.HasPrefix(inner, "/"):
			return nodes, &closer{raw: inner, line: t.line, name: strings.TrimSpace(inner[1:])}, nil
		case inner == "else" || inner == "^":
			return nodes, &closer{raw: inner, line: t.line, els: true}, nil
		case strings.HasPrefix(inner, ">"):
			return nil, nil, p.errorf(t.line, "partials ({{%s}}) are not supported", inner)
		case strings.HasPrefix(inner, "&"):
			e, err := p.parseExpr(strings.TrimSpace(inner[1:]), t.line)
			if err != nil {
				return nil, nil, err
			}
			nodes = append(nodes, valueNode{expr: e, raw: true, line: t.line})
		default:
			e, err := p.parseExpr(inner, t.line)
			if err != nil {
				return nil, nil, err
			}
			nodes = append(nodes, valueNode{expr: e, line: t.line})
		}
	}
}

var blockKinds = map[string]bool{"if": true, "unless": true, "each": true, "with": true}

func (p *parser) parseBlock(inner string, line, depth int) (node, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(inner), " ")
	if !blockKinds[name] {
		return nil, p.errorf(line, "unknown block helper {{#%s}} (known: if, unless, each, with)", name)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return nil, p.errorf(line, "{{#%s}} needs an argument", name)
	}
	e, err := p.parseExpr(rest, line)
	if err != nil {
		return nil, err
	}
	if e.translate {
		return nil, p.errorf(line, "{{#%s}} takes a path, not a helper", name)
	}
	b := blockNode{kind: name, expr: e, line: line}
	body, c, err := p.parseUntil(depth + 1)
	if err != nil {
		return nil, err
	}
	b.body = body
	if c != nil && c.els {
		inv, c2, err := p.parseUntil(depth + 1)
		if err != nil {
			return nil, err
		}
		b.inverse, c = inv, c2
		if c != nil && c.els {
			return nil, p.errorf(c.line, "{{#%s}} has two {{else}}", name)
		}
	}
	if c == nil {
		return nil, p.errorf(line, "{{#%s}} is not closed (missing {{/%s}})", name, name)
	}
	if c.name != name {
		return nil, p.errorf(c.line, "{{%s}} does not close {{#%s}} opened on line %d", c.raw, name, line)
	}
	return b, nil
}

// parseExpr reads "path" or "t <path|"literal">".
func (p *parser) parseExpr(s string, line int) (expr, error) {
	if s == "" {
		return expr{}, p.errorf(line, "empty {{}}")
	}
	head, rest, hasArgs := strings.Cut(s, " ")
	if !hasArgs {
		pa, err := parsePath(head)
		if err != nil {
			return expr{}, p.errorf(line, "%s", err)
		}
		return expr{path: pa}, nil
	}
	if head != "t" {
		return expr{}, p.errorf(line, "unknown helper %q (the only helper is t)", head)
	}
	arg := strings.TrimSpace(rest)
	if len(arg) >= 2 && (arg[0] == '"' || arg[0] == '\'') {
		q := arg[0]
		if arg[len(arg)-1] != q {
			return expr{}, p.errorf(line, "unterminated string in {{%s}}", s)
		}
		var lit string
		if q == '"' {
			v, err := strconv.Unquote(arg)
			if err != nil {
				return expr{}, p.errorf(line, "bad string in {{%s}}", s)
			}
			lit = v
		} else {
			lit = arg[1 : len(arg)-1]
		}
		return expr{translate: true, literal: &lit}, nil
	}
	if strings.ContainsAny(arg, " \"'") {
		return expr{}, p.errorf(line, "t takes one argument, got {{%s}}", s)
	}
	pa, err := parsePath(arg)
	if err != nil {
		return expr{}, p.errorf(line, "%s", err)
	}
	return expr{translate: true, path: pa}, nil
}

func parsePath(s string) (path, error) {
	var pa path
	for strings.HasPrefix(s, "../") {
		pa.up++
		s = s[3:]
	}
	if s == ".." {
		pa.up++
		return pa, nil
	}
	if s == "this" || s == "." {
		return pa, nil
	}
	s = strings.TrimPrefix(s, "this.")
	s = strings.TrimPrefix(s, "./")
	if strings.HasPrefix(s, "@") {
		name, rest, _ := strings.Cut(s[1:], ".")
		switch name {
		case "root":
			pa.root = true
			s = rest
			if s == "" {
				return pa, nil
			}
		case "index", "key", "first", "last":
			if rest != "" {
				return pa, fmt.Errorf("@%s has no fields", name)
			}
			pa.data = name
			return pa, nil
		default:
			return pa, fmt.Errorf("unknown variable @%s", name)
		}
	}
	for _, seg := range strings.Split(s, ".") {
		if seg == "" || strings.ContainsAny(seg, "{}()#/\\!<>=|\"' \t\n") {
			return pa, fmt.Errorf("%q is not a valid path", s)
		}
		pa.segments = append(pa.segments, seg)
	}
	return pa, nil
}

// next returns the text before the next tag, and the tag (nil at the end).
func (p *parser) next() (string, *tag, error) {
	var text strings.Builder
	for {
		i := strings.Index(p.src[p.pos:], "{{")
		if i < 0 {
			text.WriteString(p.src[p.pos:])
			p.pos = len(p.src)
			return p.takeText(text.String()), nil, nil
		}
		start := p.pos + i
		// \{{ is a literal {{.
		if start > 0 && p.src[start-1] == '\\' {
			text.WriteString(p.src[p.pos : start-1])
			text.WriteString("{{")
			p.advance(start + 2)
			continue
		}
		text.WriteString(p.src[p.pos:start])
		p.advance(start)
		before := p.takeText(text.String())
		t, err := p.readTag()
		if err != nil {
			return "", nil, err
		}
		return before, t, nil
	}
}

func (p *parser) takeText(s string) string {
	if p.trimNext {
		s = strings.TrimLeft(s, " \t\r\n")
		p.trimNext = false
	}
	return s
}

// advance moves to pos, counting lines.
func (p *parser) advance(pos int) {
	p.line += strings.Count(p.src[p.pos:pos], "\n")
	p.pos = pos
}

// readTag reads the tag at p.pos, which starts with {{.
func (p *parser) readTag() (*tag, error) {
	line := p.line
	rest := p.src[p.pos:]
	if strings.HasPrefix(rest, "{{!--") {
		end := strings.Index(rest, "--}}")
		if end < 0 {
			return nil, p.errorf(line, "comment {{!-- is not closed")
		}
		p.advance(p.pos + end + 4)
		return &tag{raw: "!", line: line}, nil
	}
	t := &tag{line: line}
	body := rest[2:]
	if strings.HasPrefix(body, "~") {
		t.trimBefore = true
		body = body[1:]
	}
	closeWith := []string{"~}}", "}}"}
	if strings.HasPrefix(body, "{") {
		t.triple = true
		body = body[1:]
		closeWith = []string{"}~}}", "}}}"}
	}
	end, closing := -1, ""
	for _, c := range closeWith {
		if i := strings.Index(body, c); i >= 0 && (end < 0 || i < end) {
			end, closing = i, c
		}
	}
	if end < 0 || strings.Contains(body[:end], "{{") {
		want := "}}"
		if t.triple {
			want = "}}}"
		}
		return nil, p.errorf(line, "a tag opened here is not closed with %s", want)
	}
	t.raw = body[:end]
	p.trimNext = strings.Contains(closing, "~")
	p.advance(p.pos + (len(rest) - len(body)) + end + len(closing))
	return t, nil
}

// Prefix returns the text every rendering of t starts with: the literal text before its
// first tag; all of t when it has no tag. Save-time checks judge what they can of an output
// from it (the scheme of a url field written before any tag).
func (t *Template) Prefix() string {
	var b strings.Builder
	for _, n := range t.nodes {
		tn, ok := n.(textNode)
		if !ok {
			break
		}
		b.WriteString(tn.text)
	}
	return b.String()
}
