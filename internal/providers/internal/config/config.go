// Package config describes a provider's instance configuration once — each key's type,
// meaning, default, whether it is required or secret — and derives from that both the JSON
// Schema the catalogue publishes and the decoding a provider does in New, so the two never
// disagree.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Field is one configuration key.
type Field struct {
	Name        string
	Type        string // JSON Schema type: string, boolean, integer, object
	Description string
	Required    bool
	// Secret marks credentials: sealed at rest, masked in responses ("x-secret": true).
	Secret  bool
	Default any
	Enum    []string
	Format  string // JSON Schema format, e.g. uri, email
	// Destination marks a key that decides where the instance's bytes (and its secrets) go,
	// or how securely ("x-destination"): DestinationURL for a URL Herald connects to (the
	// management API refuses internal addresses in it at save unless allow-listed,
	// HERALD_PRIVATE_HOSTS), DestinationSetting for a key that picks the host without being
	// an address (a region, an environment). A send's override may not change it on a stored
	// instance, and changing it on the instance needs the secrets re-entered.
	Destination string
}

// The kinds of destination keys ("x-destination").
const (
	// DestinationURL is an http or https URL Herald connects to.
	DestinationURL = "url"
	// DestinationSetting picks where or how securely Herald connects without being an
	// address itself: a region, an environment, a port, a TLS mode.
	DestinationSetting = "setting"
)

// Spec is a provider's configuration keys.
type Spec []Field

// Schema returns the JSON Schema of the configuration.
func (s Spec) Schema() json.RawMessage {
	props := make(map[string]any, len(s))
	var required []string
	for _, f := range s {
		p := map[string]any{"type": f.Type, "description": f.Description}
		if f.Secret {
			p["x-secret"] = true
		}
		if f.Default != nil {
			p["default"] = f.Default
		}
		if len(f.Enum) > 0 {
			p["enum"] = f.Enum
		}
		if f.Format != "" {
			p["format"] = f.Format
		}
		if f.Destination != "" {
			p["x-destination"] = f.Destination
		}
		props[f.Name] = p
		if f.Required {
			required = append(required, f.Name)
		}
	}
	schema := map[string]any{
		"$schema":    "https://json-schema.org/draft/2020-12/schema",
		"type":       "object",
		"properties": props,
	}
	if len(required) > 0 {
		schema["required"] = required
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(err) // only literal values above
	}
	return raw
}

// Decode fills dst (a pointer to the provider's config struct with json tags) from raw,
// applying defaults, and reports every missing required key, every value outside its enum
// and every wrong type at once (errors.Join, one error per rule).
func (s Spec) Decode(raw json.RawMessage, dst any) error {
	values := map[string]json.RawMessage{}
	if len(strings.TrimSpace(string(raw))) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &values); err != nil {
			return errors.New("configuration must be a JSON object")
		}
	}
	var problems []error
	for _, f := range s {
		v, present := values[f.Name]
		if !present || string(v) == "null" || string(v) == `""` {
			if f.Required {
				problems = append(problems, fmt.Errorf("%s is required", f.Name))
				continue
			}
			if f.Default != nil {
				d, _ := json.Marshal(f.Default)
				values[f.Name] = d
			}
			continue
		}
		if msg := typeProblem(f, v); msg != "" {
			problems = append(problems, errors.New(msg))
		}
	}
	if len(problems) > 0 {
		return errors.Join(problems...)
	}
	filled, err := json.Marshal(values)
	if err != nil {
		return err
	}
	return json.Unmarshal(filled, dst)
}

func typeProblem(f Field, v json.RawMessage) string {
	var ok bool
	switch f.Type {
	case "string":
		var s string
		ok = json.Unmarshal(v, &s) == nil
		if ok && len(f.Enum) > 0 && !slices.Contains(f.Enum, s) {
			return fmt.Sprintf("%s must be one of %s", f.Name, strings.Join(f.Enum, ", "))
		}
	case "boolean":
		var b bool
		ok = json.Unmarshal(v, &b) == nil
	case "integer":
		var n int64
		ok = json.Unmarshal(v, &n) == nil
	case "object":
		var m map[string]json.RawMessage
		ok = json.Unmarshal(v, &m) == nil
	default:
		ok = true
	}
	if !ok {
		article := "a"
		if f.Type == "integer" || f.Type == "object" {
			article = "an"
		}
		return fmt.Sprintf("%s must be %s %s", f.Name, article, f.Type)
	}
	return ""
}
