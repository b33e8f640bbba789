// Package payloadschema checks a workflow's payload schema — the JSON Schema (draft 2020-12)
// of the `data` its sends carry — and validates data against it. Schemas are
// self-contained: references resolve only inside the schema (no remote $ref, no file), so
// compiling one never touches the network or the disk.
package payloadschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	herald "github.com/heraldhq/herald"
)

// MaxSize caps a payload schema's JSON (bytes).
const MaxSize = 64 << 10

// MaxProblems caps the problems one validation lists (the rest are counted in a last line).
const MaxProblems = 100

// Draft is the $schema a payload schema may name (or leave out).
const Draft = "https://json-schema.org/draft/2020-12/schema"

// location is the base URL a schema is compiled under; refs that leave it are refused.
const location = "https://payload.herald.invalid/schema.json"

var printer = message.NewPrinter(language.English)

// Schema is a compiled payload schema, safe for concurrent use.
type Schema struct{ s *jsonschema.Schema }

// noRemote is the compiler's loader: every URL outside the schema is refused.
type noRemote struct{}

func (noRemote) Load(url string) (any, error) {
	return nil, fmt.Errorf("remote $ref %q is not allowed: a payload schema must be self-contained", url)
}

// Compile checks raw as a payload schema and compiles it. It returns every problem found,
// each prefixed "payloadSchema" (the field of a workflow body), and a nil Schema then.
func Compile(raw json.RawMessage) (*Schema, []string) {
	if len(raw) > MaxSize {
		return nil, []string{fmt.Sprintf("payloadSchema must be at most %d bytes of JSON (it is %d)", MaxSize, len(raw))}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, []string{"payloadSchema must be valid JSON"}
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, []string{"payloadSchema must be a JSON Schema object"}
	}
	var probs []string
	if v, ok := obj["$schema"]; ok && v != Draft {
		probs = append(probs, fmt.Sprintf("payloadSchema.$schema must be %q (draft 2020-12) or left out", Draft))
	}
	if t, ok := obj["type"]; ok && t != "object" {
		probs = append(probs, `payloadSchema.type must be "object": data is always an object`)
	}
	if len(probs) > 0 {
		return nil, probs
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noRemote{})
	if err := c.AddResource(location, doc); err != nil {
		return nil, []string{"payloadSchema: " + err.Error()}
	}
	s, err := c.Compile(location)
	if err != nil {
		return nil, compileProblems(err)
	}
	return &Schema{s: s}, nil
}

// Check returns every problem of raw as a payload schema (none: it is one).
func Check(raw json.RawMessage) []string {
	_, probs := Compile(raw)
	return probs
}

// compileProblems turns a compile error into one line per problem: each violation of the
// draft 2020-12 meta-schema, or the one reason compiling stopped.
func compileProblems(err error) []string {
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
		var out []string
		for _, p := range leaves(ve, "") {
			at := p.Pointer
			if at == "" {
				at = "/"
			}
			out = append(out, fmt.Sprintf("payloadSchema at %s: %s", at, p.Message))
		}
		return out
	}
	msg := err.Error()
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		msg = le.Err.Error()
	}
	msg = strings.ReplaceAll(msg, location, "payloadSchema")
	return []string{"payloadSchema: " + msg}
}

// Validate checks data (a JSON object; empty means none, checked as {}) against the
// schema and returns every problem, each with a JSON pointer into the send body (under
// base, such as "/data"). None means data matches.
func (s *Schema) Validate(data json.RawMessage, base string) []herald.FieldProblem {
	if len(bytes.TrimSpace(data)) == 0 {
		data = json.RawMessage(`{}`)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return []herald.FieldProblem{{Pointer: base, Message: "must be valid JSON"}}
	}
	err = s.s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []herald.FieldProblem{{Pointer: base, Message: err.Error()}}
	}
	out := leaves(ve, base)
	if len(out) > MaxProblems {
		n := len(out) - MaxProblems
		out = append(out[:MaxProblems], herald.FieldProblem{Pointer: base, Message: fmt.Sprintf("and %d more problems", n)})
	}
	return out
}

// leaves flattens a validation error tree into its leaf problems, sorted by pointer, without
// repeats.
func leaves(ve *jsonschema.ValidationError, base string) []herald.FieldProblem {
	seen := map[herald.FieldProblem]bool{}
	var out []herald.FieldProblem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		p := herald.FieldProblem{Pointer: base + pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	walk(ve)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// pointer is the JSON pointer (RFC 6901) of a location's tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		t = strings.ReplaceAll(t, "~", "~0")
		b.WriteString(strings.ReplaceAll(t, "/", "~1"))
	}
	return b.String()
}
