package flowdef

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Scope is what templated values and conditions read: the send's data, the recipient, and
// the collected batch of a digest.
type Scope struct {
	Data    map[string]any
	Profile map[string]any
	User    map[string]any
	Batch   map[string]any
}

// Lookup resolves a dotted path (data.order.id, profile.locale, user.identifier,
// batch.count). ok is false when any segment is missing.
func (s Scope) Lookup(path string) (any, bool) {
	root, rest, _ := strings.Cut(strings.TrimSpace(path), ".")
	var cur any
	switch root {
	case "data":
		cur = s.Data
	case "profile":
		cur = s.Profile
	case "user":
		cur = s.User
	case "batch":
		cur = s.Batch
	default:
		return nil, false
	}
	if rest == "" {
		return cur, cur != nil
	}
	for _, seg := range strings.Split(rest, ".") {
		switch v := cur.(type) {
		case map[string]any:
			var ok bool
			if cur, ok = v[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Expand replaces each {{path}} in s by the value at path (empty when missing). Only plain
// paths are supported here; rich templates belong to the renderer.
func (s Scope) Expand(tmpl string) string {
	var b strings.Builder
	for {
		i := strings.Index(tmpl, "{{")
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.Index(tmpl[i:], "}}")
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		if v, ok := s.Lookup(tmpl[i+2 : i+j]); ok {
			b.WriteString(stringOf(v))
		}
		tmpl = tmpl[i+j+2:]
	}
}

func stringOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
}
