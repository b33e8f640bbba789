// Package configschema validates provider instance configurations against the JSON Schema
// of their kind. It implements the subset provider schemas use — type, properties,
// required, additionalProperties (boolean), enum, minLength, maxLength, pattern, format
// (uri, email), minimum, maximum, items, minItems, maxItems — and reports every violation
// in Herald's 400 wording ("config.port must be an integer"). Other keywords are ignored;
// "x-secret": true marks a property whose value is sealed at rest and masked in responses;
// "x-destination" marks a property that decides where Herald connects, or how securely (a
// URL, a host, or a setting such as a port, a region or a TLS mode). Properties with
// neither mark are ordinary: a send's override may change them on a stored instance.
package configschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// Schema is the part of a JSON Schema this package understands.
type Schema struct {
	Type                 any                `json:"type"`
	Properties           map[string]*Schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties *bool              `json:"additionalProperties"`
	Enum                 []any              `json:"enum"`
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	Pattern              string             `json:"pattern"`
	Format               string             `json:"format"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	Items                *Schema            `json:"items"`
	MinItems             *int               `json:"minItems"`
	MaxItems             *int               `json:"maxItems"`
	Secret               bool               `json:"x-secret"`
	// Destination marks where Herald connects: "url" (an http or https URL) or "host" (a
	// host name or address, with the port in the sibling "port" property), both of which
	// the management API checks against the outbound guard at save (netguard); or
	// "setting", a property deciding where or how securely Herald connects without being an
	// address (a port, a region, an environment, a TLS mode). No destination of a stored
	// instance is changed by a send, nor on the instance without its secrets re-entered.
	Destination string `json:"x-destination"`
	// Default is the value a provider assumes when the property is left out.
	Default json.RawMessage `json:"default"`
}

// Parse reads a schema.
func Parse(raw json.RawMessage) (*Schema, error) {
	var s Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("config schema: %w", err)
	}
	return &s, nil
}

// SecretFields returns the top-level properties marked "x-secret", sorted.
func (s *Schema) SecretFields() []string {
	var out []string
	for name, p := range s.Properties {
		if p != nil && p.Secret {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// DestinationFields returns the top-level properties marked "x-destination" (of any kind),
// sorted.
func (s *Schema) DestinationFields() []string {
	var out []string
	for name, p := range s.Properties {
		if p != nil && p.Destination != "" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Destinations returns the top-level properties marked "x-destination", by name, with
// their kind ("url" or "host").
func (s *Schema) Destinations() map[string]string {
	out := map[string]string{}
	for name, p := range s.Properties {
		if p != nil && p.Destination != "" {
			out[name] = p.Destination
		}
	}
	return out
}

// Validate checks value against the schema and returns one message per violation, naming
// fields under prefix (for example "config").
func (s *Schema) Validate(value json.RawMessage, prefix string) []string {
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{prefix + " must be valid JSON"}
	}
	var out []string
	s.check(v, prefix, &out)
	return out
}

func (s *Schema) check(v any, at string, out *[]string) {
	add := func(format string, args ...any) { *out = append(*out, at+" "+fmt.Sprintf(format, args...)) }
	if types := s.types(); len(types) > 0 && !matchesAny(v, types) {
		add("must be %s", article(types))
		return
	}
	if len(s.Enum) > 0 && !inEnum(v, s.Enum) {
		add("must be one of %s", enumList(s.Enum))
	}
	switch c := v.(type) {
	case string:
		s.checkString(c, add)
	case json.Number:
		f, _ := c.Float64()
		if s.Minimum != nil && f < *s.Minimum {
			add("must not be less than %v", *s.Minimum)
		}
		if s.Maximum != nil && f > *s.Maximum {
			add("must not be greater than %v", *s.Maximum)
		}
	case []any:
		if s.MinItems != nil && len(c) < *s.MinItems {
			add("must contain at least %d elements", *s.MinItems)
		}
		if s.MaxItems != nil && len(c) > *s.MaxItems {
			add("must contain no more than %d elements", *s.MaxItems)
		}
		if s.Items != nil {
			for i, item := range c {
				s.Items.check(item, fmt.Sprintf("%s[%d]", at, i), out)
			}
		}
	case map[string]any:
		s.checkObject(c, at, out)
	}
}

func (s *Schema) checkString(c string, add func(string, ...any)) {
	n := len([]rune(c))
	if s.MinLength != nil && n < *s.MinLength {
		if *s.MinLength == 1 {
			add("should not be empty")
		} else {
			add("must be at least %d characters", *s.MinLength)
		}
	}
	if s.MaxLength != nil && n > *s.MaxLength {
		add("must be at most %d characters", *s.MaxLength)
	}
	if s.Pattern != "" {
		if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(c) {
			add("must match %s", s.Pattern)
		}
	}
	switch s.Format {
	case "uri":
		if u, err := url.Parse(c); err != nil || u.Scheme == "" || u.Host == "" {
			add("must be an absolute URL")
		}
	case "email":
		if a, err := mail.ParseAddress(c); err != nil || a.Address != c {
			add("must be an email address")
		}
	}
}

func (s *Schema) checkObject(c map[string]any, at string, out *[]string) {
	for _, name := range s.Required {
		if v, ok := c[name]; !ok || v == nil {
			*out = append(*out, fmt.Sprintf("%s.%s is required", at, name))
		}
	}
	names := make([]string, 0, len(c))
	for name := range c {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p, known := s.Properties[name]
		switch {
		case known && p != nil:
			if c[name] != nil {
				p.check(c[name], at+"."+name, out)
			}
		case s.AdditionalProperties != nil && !*s.AdditionalProperties:
			*out = append(*out, fmt.Sprintf("%s.%s is not a known field", at, name))
		}
	}
}

func (s *Schema) types() []string {
	switch t := s.Type.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

func matchesAny(v any, types []string) bool {
	for _, t := range types {
		if matches(v, t) {
			return true
		}
	}
	return false
}

func matches(v any, t string) bool {
	switch c := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case json.Number:
		if t == "number" {
			return true
		}
		f, err := c.Float64()
		return t == "integer" && err == nil && f == math.Trunc(f)
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

func article(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "integer", "array", "object":
			parts[i] = "an " + t
		default:
			parts[i] = "a " + t
		}
	}
	return strings.Join(parts, " or ")
}

func inEnum(v any, enum []any) bool {
	got, _ := json.Marshal(normalise(v))
	for _, e := range enum {
		want, _ := json.Marshal(normalise(e))
		if bytes.Equal(got, want) {
			return true
		}
	}
	return false
}

// normalise turns json.Number into float64 so 1 and 1.0 compare equal.
func normalise(v any) any {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return v
}

func enumList(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		b, _ := json.Marshal(e)
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}
