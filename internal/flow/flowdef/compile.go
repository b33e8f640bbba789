package flowdef

import (
	"encoding/json"
	"fmt"
	"time"

	herald "github.com/heraldhq/herald"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// DefaultFetchTimeout is how long a fetch step without a timeout waits for its response.
const DefaultFetchTimeout = 10 * time.Second

// Program is a definition compiled: what a run executes. Every duration, time of day,
// send window and condition value is read once, by the same code that validates it, so a
// definition that validates compiles and a run never reads a string again. The JSON form
// stays in Definition (runs carry it in their inputs, records show it).
type Program struct {
	Definition Definition
	// Start is the id of the first step (the first of Steps when the definition names none).
	Start string
	// Steps are the compiled steps in the order of the definition.
	Steps []CompiledStep
	index map[string]int
}

// CompiledStep is a step with its typed fields. The embedded Step is the step as defined
// (activity inputs and step records carry it); which typed fields apply depends on Type.
// The typed fields are named apart from the strings they are read from (DelayFor from
// Duration, WindowFor from Window, …), so neither hides the other.
type CompiledStep struct {
	Step
	// DelayFor is a delay's duration (0: the delay uses until or timeOfDay).
	DelayFor time.Duration
	// Clock is the timeOfDay of a delay or digest step (nil: none).
	Clock *Clock
	// Zone is the step's timezone, the fallback of a recipient without one (UTC when the
	// step names none).
	Zone *time.Location
	// WindowFor is a digest's window (0: none) or a throttle's.
	WindowFor time.Duration
	// TimeoutAfter is a waitForRead's timeout, or a fetch's (DefaultFetchTimeout when not set).
	TimeoutAfter time.Duration
	// HTTPMethod is a fetch's method (GET when not set).
	HTTPMethod string
	// OpenHours is a channel step's send window compiled (nil: none).
	OpenHours *Window
}

// Window is a send window compiled: its bounds in seconds after midnight (both 0: the
// whole day) and its days as bits by time.Weekday (0: every day).
type Window struct {
	Start, End int
	Days       uint8
}

// StepByID returns the compiled step with an id.
func (p *Program) StepByID(id string) (*CompiledStep, bool) {
	i, ok := p.index[id]
	if !ok {
		return nil, false
	}
	return &p.Steps[i], true
}

// Compile validates a definition in its JSON form and compiles it. Every problem is
// reported (a 400 listing them): wrong field types, unknown step types, missing or dangling
// references, cycles, unreachable steps, bad durations, times and windows, missing
// templates.
func Compile(raw json.RawMessage, ck Checker) (*Program, error) {
	var p herald.Problems
	top := js.Fields(raw)
	if top == nil {
		return nil, herald.Invalid("definition must be an object")
	}
	items, ok := js.Elements(top["steps"])
	if !ok || len(items) == 0 {
		return nil, herald.Invalid("definition.steps must be a non-empty array")
	}
	if len(items) > MaxSteps {
		p.Addf("definition.steps must contain no more than %d steps", MaxSteps)
	}
	def := Definition{}
	if v := top["start"]; js.Present(v) {
		if s, ok := js.String(v); ok {
			def.Start = s
		} else {
			p.Addf("definition.start must be a string")
		}
	}
	for i, it := range items {
		fs := js.Fields(it)
		if fs == nil {
			p.Addf("steps[%d] must be an object", i)
			continue
		}
		typeOK := true
		for name, want := range fieldKinds {
			if v, present := fs[name]; present && js.Present(v) && js.Kind(v) != want {
				p.Addf("steps[%d].%s must be a%s %s", i, name, article(want), want)
				typeOK = false
			}
		}
		var st Step
		if typeOK {
			if err := json.Unmarshal(it, &st); err != nil {
				p.Addf("steps[%d]: %v", i, err)
			}
		}
		def.Steps = append(def.Steps, st)
	}
	if len(p) > 0 {
		return nil, p.Err()
	}
	return def.compile(ck)
}

// Compile compiles a definition already decoded, with the checks that need nothing outside
// it (Herald's channels; no template, layout or content check). The interpreter compiles the
// definition its run carries with it: a pure function of the run's input, so recorded runs
// replay.
func (d Definition) Compile() (*Program, error) {
	if len(d.Steps) == 0 {
		return nil, herald.Invalid("definition.steps must be a non-empty array")
	}
	if len(d.Steps) > MaxSteps {
		return nil, herald.Invalid(fmt.Sprintf("definition.steps must contain no more than %d steps", MaxSteps))
	}
	return d.compile(Checker{Channels: herald.Channels})
}

// compile validates the steps and the graph and builds the program: one path, so what
// validates compiles.
func (d Definition) compile(ck Checker) (*Program, error) {
	var p herald.Problems
	steps := compileSteps(&d, ck, &p)
	if len(p) == 0 {
		validateGraph(&d, &p)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	if d.Start == "" {
		d.Start = d.Steps[0].ID
	}
	prog := &Program{Definition: d, Start: d.Start, Steps: steps, index: make(map[string]int, len(steps))}
	for i, s := range steps {
		prog.index[s.ID] = i
	}
	return prog, nil
}
