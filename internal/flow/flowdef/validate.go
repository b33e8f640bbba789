package flowdef

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
)

// Limits of a definition.
const (
	MaxSteps     = 100
	MaxFetchWait = 30 * time.Second
)

// Checker answers questions validation needs from outside: the channel identifiers,
// whether a template exists in the app, and the problems of inline content (nil skips
// either check).
type Checker struct {
	Channels       []string
	TemplateExists func(identifier string) bool
	// LayoutExists tells whether the app has an email layout (an inline email step's layout).
	LayoutExists func(identifier string) bool
	// CheckContent returns the problems of a channel step's inline content, worded
	// "content.<field> …" or as a sentence.
	CheckContent func(channel string, content json.RawMessage) []string
}

// fieldKinds is the JSON type of every step field, to report every wrongly typed field.
var fieldKinds = map[string]string{
	"id": "string", "type": "string", "next": "string", "template": "string", "layout": "string", "duration": "string",
	"until": "string", "timeOfDay": "string", "timezone": "string", "window": "string", "key": "string",
	"else": "string", "step": "string", "state": "string", "timeout": "string", "timeoutNext": "string",
	"url": "string", "method": "string", "body": "string", "resultKey": "string", "onError": "string",
	"count": "number", "retries": "number", "limit": "number",
	"content": "object", "headers": "object", "conditions": "array", "sendWindow": "object",
}

func article(kind string) string {
	if kind == "object" || kind == "array" {
		return "n"
	}
	return ""
}

// compileSteps checks every step and reads its typed fields (compiled only when it has
// no problem: the caller uses them only then).
func compileSteps(def *Definition, ck Checker, p *herald.Problems) []CompiledStep {
	out := make([]CompiledStep, len(def.Steps))
	ids := map[string]int{}
	for i, s := range def.Steps {
		switch {
		case strings.TrimSpace(s.ID) == "":
			p.Addf("steps[%d].id should not be empty", i)
		case ids[s.ID] > 0:
			p.Addf("steps[%d].id %q is used twice", i, s.ID)
		}
		ids[s.ID] = i + 1
	}
	if def.Start != "" && ids[def.Start] == 0 {
		p.Addf("definition.start: no step with id %q", def.Start)
	}
	ref := func(i int, field, id string) {
		if id != "" && ids[id] == 0 {
			p.Addf("steps[%d].%s: no step with id %q", i, field, id)
		}
	}
	dur := func(i int, field, v string, required bool) time.Duration {
		if v == "" {
			if required {
				p.Addf("steps[%d].%s is required", i, field)
			}
			return 0
		}
		d, err := parseDuration(v)
		if err != nil {
			p.Addf("steps[%d].%s: %v", i, field, err)
		}
		return d
	}
	// clock checks the time of day of a delay or digest step and its fallback time zone,
	// which it compiles into zone.
	clock := func(i int, s Step, zone **time.Location) *Clock {
		var c *Clock
		if s.TimeOfDay != "" {
			if v, err := parseTimeOfDay(s.TimeOfDay); err != nil {
				p.Addf("steps[%d].timeOfDay: %v", i, err)
			} else {
				c = &v
			}
		}
		*zone = time.UTC
		if s.Timezone != "" {
			if loc, err := time.LoadLocation(s.Timezone); err != nil {
				p.Addf("steps[%d].timezone: unknown time zone %q", i, s.Timezone)
			} else {
				*zone = loc
			}
		}
		return c
	}
	for i, s := range def.Steps {
		c := &out[i]
		c.Step = s
		ref(i, "next", s.Next)
		switch {
		case IsChannelType(s.Type, ck.Channels):
			c.OpenHours = compileSendWindow(i, s, p.Addf)
			switch {
			case s.Layout == "":
			case s.Type != "email" || len(s.Content) == 0:
				p.Addf("steps[%d].layout applies to email steps with inline content only", i)
			case ck.LayoutExists != nil && !ck.LayoutExists(s.Layout):
				p.Addf("steps[%d].layout: no layout %q in this app", i, s.Layout)
			}
			switch {
			case s.Template == "" && len(s.Content) == 0:
				p.Addf("steps[%d] (%s) needs a template or content", i, s.Type)
			case s.Template != "" && len(s.Content) > 0:
				p.Addf("steps[%d] (%s) needs a template or content, not both", i, s.Type)
			case s.Template != "" && ck.TemplateExists != nil && !ck.TemplateExists(s.Template):
				p.Addf("steps[%d].template: no template %q in this app", i, s.Template)
			case len(s.Content) > 0 && ck.CheckContent != nil:
				for _, msg := range ck.CheckContent(s.Type, s.Content) {
					if strings.HasPrefix(msg, "content.") {
						p.Addf("steps[%d].%s", i, msg)
					} else {
						p.Addf("steps[%d]: %s", i, msg)
					}
				}
			}
		case s.Type == TypeDelay:
			set := 0
			for _, v := range []string{s.Duration, s.Until, s.TimeOfDay} {
				if v != "" {
					set++
				}
			}
			if set != 1 {
				p.Addf("steps[%d] (delay) needs exactly one of duration, until, timeOfDay", i)
			}
			c.DelayFor = dur(i, "duration", s.Duration, false)
			if s.Until != "" && !strings.Contains(s.Until, "{{") {
				if _, err := time.Parse(time.RFC3339, s.Until); err != nil {
					p.Addf("steps[%d].until must be an ISO 8601 time or a {{data.…}} reference", i)
				}
			}
			c.Clock = clock(i, s, &c.Zone)
		case s.Type == TypeDigest:
			switch {
			case s.Window == "" && s.TimeOfDay == "" && s.Count == 0:
				p.Addf("steps[%d] (digest) needs a window, a timeOfDay or a count", i)
			case s.Window != "" && s.TimeOfDay != "":
				p.Addf("steps[%d] (digest) takes a window or a timeOfDay, not both", i)
			}
			c.WindowFor = dur(i, "window", s.Window, false)
			c.Clock = clock(i, s, &c.Zone)
			if s.Count < 0 || s.Count > 1000 {
				p.Addf("steps[%d].count must be between 1 and 1000", i)
			}
		case s.Type == TypeBranch:
			if len(s.Conditions) == 0 {
				p.Addf("steps[%d] (branch) needs at least one condition", i)
			}
			c.Conditions = make([]Case, len(s.Conditions))
			for j, cs := range s.Conditions {
				ref(i, fmt.Sprintf("conditions[%d].next", j), cs.Next)
				if cs.Next == "" {
					p.Addf("steps[%d].conditions[%d].next is required", i, j)
				}
				c.Conditions[j] = Case{If: compileCondition(def, ids, cs.If, fmt.Sprintf("steps[%d].conditions[%d].if", i, j), p), Next: cs.Next}
			}
			ref(i, "else", s.Else)
		case s.Type == TypeWaitForRead:
			target, ok := def.StepByID(s.Step)
			switch {
			case s.Step == "":
				p.Addf("steps[%d].step is required (the inApp step to wait on)", i)
			case !ok:
				p.Addf("steps[%d].step: no step with id %q", i, s.Step)
			case target.Type != "inApp":
				p.Addf("steps[%d].step: %q is not an inApp step", i, s.Step)
			}
			if s.State != "" && !slices.Contains([]string{"read", "clicked", "seen", "interacted"}, s.State) {
				p.Addf("steps[%d].state must be one of read, clicked, seen, interacted", i)
			}
			c.TimeoutAfter = dur(i, "timeout", s.Timeout, true)
			ref(i, "timeoutNext", s.TimeoutNext)
		case s.Type == TypeFetch:
			u, err := url.Parse(s.URL)
			if s.URL == "" || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
				p.Addf("steps[%d].url must be an absolute http(s) URL", i)
			}
			c.HTTPMethod = s.Method
			switch s.Method {
			case "":
				c.HTTPMethod = "GET"
			case "GET", "POST":
			default:
				p.Addf("steps[%d].method must be GET or POST", i)
			}
			c.TimeoutAfter = DefaultFetchTimeout
			if s.Timeout != "" {
				if d, err := parseDuration(s.Timeout); err != nil {
					p.Addf("steps[%d].timeout: %v", i, err)
				} else if d > MaxFetchWait {
					p.Addf("steps[%d].timeout must be at most %s", i, MaxFetchWait)
				} else {
					c.TimeoutAfter = d
				}
			}
			if s.Retries < 0 || s.Retries > 10 {
				p.Addf("steps[%d].retries must be between 0 and 10", i)
			}
			ref(i, "onError", s.OnError)
		case s.Type == TypeThrottle:
			if s.Limit < 1 {
				p.Addf("steps[%d].limit must be at least 1", i)
			}
			c.WindowFor = dur(i, "window", s.Window, true)
		case s.Type == "":
			p.Addf("steps[%d].type is required", i)
		default:
			p.Addf("steps[%d].type: unknown step type %q (channels: %s; control: %s)", i, s.Type,
				strings.Join(ck.Channels, ", "), strings.Join(controlTypes, ", "))
		}
	}
	return out
}

// compileCondition checks a condition and returns it compiled: its value decoded once, and
// so for every condition below it.
func compileCondition(def *Definition, ids map[string]int, c Condition, at string, p *herald.Problems) Condition {
	forms := 0
	if c.Field != "" {
		forms++
	}
	if c.StepID != "" {
		forms++
	}
	if len(c.And) > 0 {
		forms++
	}
	if len(c.Or) > 0 {
		forms++
	}
	if c.Not != nil {
		forms++
	}
	if forms != 1 {
		p.Addf("%s must have exactly one of field, step, and, or, not", at)
		return c
	}
	out := c
	switch {
	case c.Field != "":
		root, _, _ := strings.Cut(c.Field, ".")
		if !slices.Contains([]string{"data", "profile", "user", "batch"}, root) {
			p.Addf("%s.field must start with data., profile., user. or batch.", at)
		}
		if !slices.Contains(fieldOps, c.Op) {
			p.Addf("%s.op must be one of %s", at, strings.Join(fieldOps, ", "))
		}
		if len(c.Value) > 0 {
			if err := json.Unmarshal(c.Value, &out.want); err != nil {
				p.Addf("%s.value: %v", at, err)
			}
		}
	case c.StepID != "":
		if ids[c.StepID] == 0 {
			p.Addf("%s.step: no step with id %q", at, c.StepID)
		} else if s, _ := def.StepByID(c.StepID); s.Type == TypeDelay || s.Type == TypeBranch {
			p.Addf("%s.step: %q is not a channel step", at, c.StepID)
		}
		if !slices.Contains(stepStates, c.Is) {
			p.Addf("%s.is must be one of %s", at, strings.Join(stepStates, ", "))
		}
	case len(c.And) > 0:
		out.And = make([]Condition, len(c.And))
		for k, sub := range c.And {
			out.And[k] = compileCondition(def, ids, sub, fmt.Sprintf("%s.and[%d]", at, k), p)
		}
	case len(c.Or) > 0:
		out.Or = make([]Condition, len(c.Or))
		for k, sub := range c.Or {
			out.Or[k] = compileCondition(def, ids, sub, fmt.Sprintf("%s.or[%d]", at, k), p)
		}
	default:
		not := compileCondition(def, ids, *c.Not, at+".not", p)
		out.Not = &not
	}
	return out
}

// validateGraph reports cycles and unreachable steps, and conditions or waits that read a
// step that does not always run before them.
func validateGraph(def *Definition, p *herald.Problems) {
	start := def.Start
	if start == "" {
		start = def.Steps[0].ID
	}
	const (
		unvisited = iota
		active
		done
	)
	mark := map[string]int{}
	var cycle []string
	var visit func(id string, path []string) bool
	visit = func(id string, path []string) bool {
		switch mark[id] {
		case active:
			i := slices.Index(path, id)
			cycle = append(append([]string{}, path[i:]...), id)
			return false
		case done:
			return true
		}
		mark[id] = active
		s, _ := def.StepByID(id)
		for _, next := range s.Successors() {
			if !visit(next, append(path, id)) {
				return false
			}
		}
		mark[id] = done
		return true
	}
	if !visit(start, nil) {
		p.Addf("steps form a cycle: %s", strings.Join(cycle, " → "))
		return
	}
	for i, s := range def.Steps {
		if mark[s.ID] != done {
			p.Addf("steps[%d] (id %q) is unreachable from the start step %q", i, s.ID, start)
		}
	}
	// A step read by a condition or a wait must run on every path before the reader.
	before := dominators(def, start)
	for i, s := range def.Steps {
		var refs []string
		if s.Type == TypeWaitForRead && s.Step != "" {
			refs = append(refs, s.Step)
		}
		for _, c := range s.Conditions {
			refs = append(refs, c.If.StepRefs()...)
		}
		for _, r := range refs {
			if !before[s.ID][r] {
				p.Addf("steps[%d] reads step %q, which does not always run before it", i, r)
			}
		}
	}
}

// dominators returns, per step, the set of steps that run on every path from the start to
// it (the graph is acyclic here).
func dominators(def *Definition, start string) map[string]map[string]bool {
	preds := map[string][]string{}
	for _, s := range def.Steps {
		for _, n := range s.Successors() {
			preds[n] = append(preds[n], s.ID)
		}
	}
	order := topo(def, start)
	dom := map[string]map[string]bool{}
	for _, id := range order {
		var set map[string]bool
		for _, pr := range preds[id] {
			pd := dom[pr]
			if pd == nil {
				continue
			}
			withPred := map[string]bool{pr: true}
			for k := range pd {
				withPred[k] = true
			}
			if set == nil {
				set = withPred
				continue
			}
			for k := range set {
				if !withPred[k] {
					delete(set, k)
				}
			}
		}
		if set == nil {
			set = map[string]bool{}
		}
		dom[id] = set
	}
	return dom
}

func topo(def *Definition, start string) []string {
	var out []string
	seen := map[string]bool{}
	var visit func(string)
	visit = func(id string) {
		if seen[id] {
			return
		}
		seen[id] = true
		s, _ := def.StepByID(id)
		for _, n := range s.Successors() {
			visit(n)
		}
		out = append(out, id)
	}
	visit(start)
	slices.Reverse(out)
	return out
}
