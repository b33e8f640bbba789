package channels

import (
	"bytes"
	"encoding/json"
	"strings"

	herald "github.com/heraldhq/herald"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// MaxConditions caps the conditions of one route.
const MaxConditions = 20

// Condition is a test on the message a route applies to. Field is a dotted path into the
// message's facts: data.<key>…, user.identifier, user.profile.<key>…, category.identifier,
// template.identifier. Operators: eq, neq, in, notIn (value is an array), exists,
// notExists (no value).
type Condition struct {
	Field    string          `json:"field"`
	Operator string          `json:"operator"`
	Value    json.RawMessage `json:"value,omitempty"`
}

var operators = map[string]bool{"eq": true, "neq": true, "in": true, "notIn": true, "exists": true, "notExists": true}

var factRoots = []string{"data", "user", "category", "template"}

// parseConditions validates a JSON array of conditions.
func parseConditions(raw json.RawMessage, p *herald.Problems) []Condition {
	out := []Condition{}
	if !js.Present(raw) {
		return out
	}
	items, ok := js.Elements(raw)
	if !ok {
		p.Addf("conditions must be an array")
		return out
	}
	if len(items) > MaxConditions {
		p.Addf("conditions must contain no more than %d elements", MaxConditions)
		return out
	}
	for i, it := range items {
		f := js.Fields(it)
		if f == nil {
			p.Addf("conditions[%d] must be an object", i)
			continue
		}
		var c Condition
		field, ok := js.String(f["field"])
		root, _, _ := strings.Cut(field, ".")
		if !ok || !validRoot(root) || strings.Contains(field, "..") || strings.HasSuffix(field, ".") {
			p.Addf("conditions[%d].field must be a path under %s (for example data.region)", i, strings.Join(factRoots, ", "))
		}
		c.Field = field
		op, _ := js.String(f["operator"])
		if !operators[op] {
			p.Addf("conditions[%d].operator must be one of eq, neq, in, notIn, exists, notExists", i)
		}
		c.Operator = op
		switch op {
		case "in", "notIn":
			if js.Kind(f["value"]) != "array" {
				p.Addf("conditions[%d].value must be an array", i)
			}
		case "eq", "neq":
			if !js.Present(f["value"]) {
				p.Addf("conditions[%d].value is required", i)
			}
		}
		if op != "exists" && op != "notExists" {
			c.Value = f["value"]
		}
		out = append(out, c)
	}
	return out
}

func validRoot(root string) bool {
	for _, r := range factRoots {
		if r == root {
			return true
		}
	}
	return false
}

// matchAll reports whether every condition holds for facts.
func matchAll(conds []Condition, facts map[string]any) bool {
	for _, c := range conds {
		if !c.matches(facts) {
			return false
		}
	}
	return true
}

func (c Condition) matches(facts map[string]any) bool {
	v, found := lookup(facts, c.Field)
	switch c.Operator {
	case "exists":
		return found
	case "notExists":
		return !found
	case "eq":
		return found && equal(v, c.Value)
	case "neq":
		return !found || !equal(v, c.Value)
	case "in", "notIn":
		items, _ := js.Elements(c.Value)
		in := false
		for _, it := range items {
			if found && equal(v, it) {
				in = true
				break
			}
		}
		return in == (c.Operator == "in")
	}
	return false
}

func lookup(facts map[string]any, path string) (any, bool) {
	var cur any = facts
	for _, seg := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return cur, cur != nil
}

// equal compares a fact with a JSON value; numbers compare by value.
func equal(v any, raw json.RawMessage) bool {
	var want any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&want) != nil {
		return false
	}
	a, _ := json.Marshal(normalise(v))
	b, _ := json.Marshal(normalise(want))
	return bytes.Equal(a, b)
}

func normalise(v any) any {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		if err != nil {
			return n.String()
		}
		return f
	case int:
		return float64(n)
	case int64:
		return float64(n)
	}
	return v
}
