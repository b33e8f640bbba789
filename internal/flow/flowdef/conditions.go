package flowdef

import (
	"reflect"
	"slices"
	"strings"
)

// Comparison operators of field conditions.
var fieldOps = []string{"eq", "ne", "gt", "gte", "lt", "lte", "contains", "exists", "notExists", "in"}

// Step states a condition can test.
var stepStates = []string{"read", "notRead", "seen", "notSeen", "clicked", "notClicked", "interacted", "notInteracted", "delivered", "notDelivered"}

// StepState is what the interpreter knows of an earlier channel step when a branch runs.
type StepState struct {
	Delivered  bool `json:"delivered"`
	Seen       bool `json:"seen"`
	Read       bool `json:"read"`
	Clicked    bool `json:"clicked"`
	Interacted bool `json:"interacted"`
}

// Eval evaluates c against the scope and the states of earlier steps. c is a condition of a
// Program (compiled: its value decoded); an uncompiled one compares with a null value.
func (c Condition) Eval(s Scope, states map[string]StepState) bool {
	switch {
	case len(c.And) > 0:
		for _, sub := range c.And {
			if !sub.Eval(s, states) {
				return false
			}
		}
		return true
	case len(c.Or) > 0:
		for _, sub := range c.Or {
			if sub.Eval(s, states) {
				return true
			}
		}
		return false
	case c.Not != nil:
		return !c.Not.Eval(s, states)
	case c.StepID != "":
		st := states[c.StepID]
		want, negate := strings.CutPrefix(c.Is, "not")
		var got bool
		switch strings.ToLower(want) {
		case "read":
			got = st.Read
		case "seen":
			got = st.Seen
		case "clicked":
			got = st.Clicked
		case "interacted":
			got = st.Interacted
		case "delivered":
			got = st.Delivered
		}
		return got != negate
	}
	v, ok := s.Lookup(c.Field)
	want := c.want
	switch c.Op {
	case "exists":
		return ok && v != nil
	case "notExists":
		return !ok || v == nil
	case "eq":
		return ok && equal(v, want)
	case "ne":
		return !ok || !equal(v, want)
	case "gt", "gte", "lt", "lte":
		return ok && compare(v, want, c.Op)
	case "contains":
		switch x := v.(type) {
		case string:
			w, isStr := want.(string)
			return isStr && strings.Contains(x, w)
		case []any:
			return slices.ContainsFunc(x, func(e any) bool { return equal(e, want) })
		}
		return false
	case "in":
		list, isList := want.([]any)
		return ok && isList && slices.ContainsFunc(list, func(e any) bool { return equal(v, e) })
	}
	return false
}

func equal(a, b any) bool { return reflect.DeepEqual(a, b) }

func compare(a, b any, op string) bool {
	var c int
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		if !ok {
			return false
		}
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	case string:
		y, ok := b.(string)
		if !ok {
			return false
		}
		c = strings.Compare(x, y)
	default:
		return false
	}
	switch op {
	case "gt":
		return c > 0
	case "gte":
		return c >= 0
	case "lt":
		return c < 0
	default:
		return c <= 0
	}
}
