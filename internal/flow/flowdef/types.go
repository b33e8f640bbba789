// Package flowdef is the model of a user-defined notification workflow: a JSON graph of
// steps (channel deliveries, delays, digests, branches, waits, fetches, throttles), its
// compilation (Compile: validation with every problem reported, and the typed Program the
// interpreter runs, one path) and the pure evaluation helpers (times of day, conditions,
// templated values) the interpreter workflow uses deterministically.
package flowdef

import (
	"encoding/json"
	"maps"
	"slices"
)

// Step types besides the channel steps (whose type is a channel identifier).
const (
	TypeDelay       = "delay"
	TypeDigest      = "digest"
	TypeBranch      = "branch"
	TypeWaitForRead = "waitForRead"
	TypeFetch       = "fetch"
	TypeThrottle    = "throttle"
)

// controlTypes are the step types that are not deliveries.
var controlTypes = []string{TypeDelay, TypeDigest, TypeBranch, TypeWaitForRead, TypeFetch, TypeThrottle}

// Definition is a workflow graph in its JSON form (what versions store and runs carry);
// Compile makes the Program a run executes.
type Definition struct {
	// Start is the id of the first step (the first of Steps when not given).
	Start string `json:"start,omitempty"`
	Steps []Step `json:"steps"`
}

// Step is one node of the graph. Which fields apply depends on Type.
type Step struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// Next is the step after this one; empty ends the run.
	Next string `json:"next,omitempty"`

	// Channel steps: a template reference or inline content.
	Template string          `json:"template,omitempty"`
	Content  json.RawMessage `json:"content,omitempty"`
	// Layout, on an email step with inline content, is the identifier of the app's email
	// layout around it; empty is the app's default layout.
	Layout string `json:"layout,omitempty"`
	// SendWindow, on an external channel step, holds the step until the window opens in
	// the recipient's time zone ("weekdays 09:00–17:00").
	SendWindow *SendWindow `json:"sendWindow,omitempty"`

	// Delay: exactly one of Duration, Until (a templated ISO 8601 time, e.g.
	// "{{data.remindAt}}") or TimeOfDay ("09:00" or "09:00:30", in the recipient's timezone
	// profile key, else Timezone, else UTC). A digest step may use TimeOfDay and Timezone too.
	Duration  string `json:"duration,omitempty"`
	Until     string `json:"until,omitempty"`
	TimeOfDay string `json:"timeOfDay,omitempty"`
	Timezone  string `json:"timezone,omitempty"`

	// Digest: collect triggers with the same Key (default: workflow + recipient) for Window,
	// or until the next TimeOfDay in the recipient's time zone (as for a delay; not with
	// Window), or until Count triggers arrived (with Window or TimeOfDay as the longest
	// wait when both are set).
	Window string `json:"window,omitempty"`
	Count  int    `json:"count,omitempty"`
	Key    string `json:"key,omitempty"`

	// Branch: the first condition that holds picks its next step, else Else.
	Conditions []Case `json:"conditions,omitempty"`
	Else       string `json:"else,omitempty"`

	// WaitForRead: wait until the in-app notification of step Step reaches State (read,
	// clicked, seen or interacted) — then go to Next — or Timeout passes — then go to
	// TimeoutNext.
	Step        string `json:"step,omitempty"`
	State       string `json:"state,omitempty"`
	Timeout     string `json:"timeout,omitempty"`
	TimeoutNext string `json:"timeoutNext,omitempty"`

	// Fetch: an HTTP request whose JSON response merges into data (under ResultKey when set).
	URL       string            `json:"url,omitempty"`
	Method    string            `json:"method,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Body      string            `json:"body,omitempty"`
	Retries   int               `json:"retries,omitempty"`
	ResultKey string            `json:"resultKey,omitempty"`
	// OnError is where a failed fetch goes; empty ends the run as failed.
	OnError string `json:"onError,omitempty"`

	// Throttle: at most Limit runs per Key per Window; the rest end as throttled.
	Limit int `json:"limit,omitempty"`
}

// Case is one branch of a branch step.
type Case struct {
	If   Condition `json:"if"`
	Next string    `json:"next"`
}

// Condition is a predicate on data, the recipient, or an earlier step. Exactly one form is
// used: Field+Op(+Value), StepID+Is, And, Or, Not.
type Condition struct {
	// Field is a dotted path: data.x, profile.x, user.identifier.
	Field string          `json:"field,omitempty"`
	Op    string          `json:"op,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`

	StepID string `json:"step,omitempty"`
	// Is names a state of the in-app notification written by StepID: read, notRead, seen,
	// notSeen, clicked, notClicked, interacted, notInteracted.
	Is string `json:"is,omitempty"`

	And []Condition `json:"and,omitempty"`
	Or  []Condition `json:"or,omitempty"`
	Not *Condition  `json:"not,omitempty"`

	// want is Value decoded (by Compile; never in JSON).
	want any
}

// IsChannelType reports whether a step type is a delivery on a channel.
func IsChannelType(t string, channels []string) bool { return slices.Contains(channels, t) }

// StepByID returns the step with an id.
func (d *Definition) StepByID(id string) (Step, bool) {
	for _, s := range d.Steps {
		if s.ID == id {
			return s, true
		}
	}
	return Step{}, false
}

// Successors lists the steps a step may go to.
func (s Step) Successors() []string {
	var out []string
	add := func(id string) {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	add(s.Next)
	for _, c := range s.Conditions {
		add(c.Next)
	}
	add(s.Else)
	add(s.TimeoutNext)
	add(s.OnError)
	return out
}

// StepRefs lists the earlier steps a condition reads.
func (c Condition) StepRefs() []string {
	var out []string
	if c.StepID != "" {
		out = append(out, c.StepID)
	}
	for _, sub := range c.And {
		out = append(out, sub.StepRefs()...)
	}
	for _, sub := range c.Or {
		out = append(out, sub.StepRefs()...)
	}
	if c.Not != nil {
		out = append(out, c.Not.StepRefs()...)
	}
	return out
}

// ControlTypes lists the step types that are not deliveries (a copy).
func ControlTypes() []string { return slices.Clone(controlTypes) }

// FieldKinds maps every step field to the JSON type Parse requires of it when present
// ("string", "number", "object" or "array"), whatever the step's type (a copy). The
// published JSON Schema of definitions is checked against it.
func FieldKinds() map[string]string { return maps.Clone(fieldKinds) }
