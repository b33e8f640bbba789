package flowdef

import "encoding/json"

// Comparison is one leaf of a condition as a run evaluated it: a field compared with a
// value (Field, Op, Value, the Actual value found), or the state of an earlier step's
// notification (Step, Is, the State known). The run timeline shows them for a branch.
type Comparison struct {
	Field string          `json:"field,omitempty"`
	Op    string          `json:"op,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	// Actual is the value the field had (absent when Found is false).
	Actual any  `json:"actual,omitempty"`
	Found  bool `json:"found"`

	Step  string     `json:"step,omitempty"`
	Is    string     `json:"is,omitempty"`
	State *StepState `json:"state,omitempty"`

	// Negated is set for a leaf under a not: its Result is the leaf's own, before the not.
	Negated bool `json:"negated,omitempty"`
	Result  bool `json:"result"`
}

// Explain lists the leaves of c with the values they compared and their own results, in
// the order they appear (every leaf, also those an and/or did not need). It is pure: a
// workflow may call it while it evaluates a branch.
func (c Condition) Explain(s Scope, states map[string]StepState) []Comparison {
	var out []Comparison
	c.explain(s, states, false, &out)
	return out
}

func (c Condition) explain(s Scope, states map[string]StepState, negated bool, out *[]Comparison) {
	switch {
	case len(c.And) > 0:
		for _, sub := range c.And {
			sub.explain(s, states, negated, out)
		}
	case len(c.Or) > 0:
		for _, sub := range c.Or {
			sub.explain(s, states, negated, out)
		}
	case c.Not != nil:
		c.Not.explain(s, states, !negated, out)
	case c.StepID != "":
		st := states[c.StepID]
		*out = append(*out, Comparison{Step: c.StepID, Is: c.Is, State: &st, Found: true, Negated: negated, Result: c.Eval(s, states)})
	default:
		v, ok := s.Lookup(c.Field)
		cmp := Comparison{Field: c.Field, Op: c.Op, Value: c.Value, Found: ok, Negated: negated, Result: c.Eval(s, states)}
		if ok {
			cmp.Actual = v
		}
		*out = append(*out, cmp)
	}
}
