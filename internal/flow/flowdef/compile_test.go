package flowdef

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	herald "github.com/heraldhq/herald"
)

// TestCompileTypesEveryField compiles one step of each kind that carries a duration, a time
// of day, a window or a condition value, and checks the typed fields the interpreter reads.
func TestCompileTypesEveryField(t *testing.T) {
	prog, err := Compile(json.RawMessage(`{"start":"in","steps":[
		{"id":"in","type":"inApp","template":"welcome","next":"wait"},
		{"id":"wait","type":"delay","duration":"1d12h","next":"clock"},
		{"id":"clock","type":"delay","timeOfDay":"08:30:15","timezone":"Europe/Paris","next":"until"},
		{"id":"until","type":"delay","until":"{{data.at}}","next":"read"},
		{"id":"read","type":"waitForRead","step":"in","timeout":"2h","next":"fetch"},
		{"id":"fetch","type":"fetch","url":"https://example.com/x","timeout":"20s","next":"fetch2"},
		{"id":"fetch2","type":"fetch","url":"https://example.com/y","method":"POST","next":"limit"},
		{"id":"limit","type":"throttle","limit":3,"window":"15m","next":"dig"},
		{"id":"dig","type":"digest","window":"90s","count":5,"next":"dig2"},
		{"id":"dig2","type":"digest","timeOfDay":"09:00","next":"check"},
		{"id":"check","type":"branch","conditions":[{"if":{"and":[{"field":"data.n","op":"in","value":[1,2]},{"not":{"field":"data.plan","op":"eq","value":"pro"}}]},"next":"mail"}]},
		{"id":"mail","type":"email","content":{"subject":"s","text":"t"},"sendWindow":{"days":["monday","friday"],"start":"22:00","end":"06:30:15"}}
	]}`), ck)
	if err != nil {
		t.Fatal(err)
	}
	step := func(id string) *CompiledStep {
		s, ok := prog.StepByID(id)
		if !ok {
			t.Fatalf("no compiled step %q", id)
		}
		return s
	}
	if prog.Start != "in" || len(prog.Steps) != 12 || prog.Definition.Start != "in" {
		t.Errorf("program starts at %q with %d steps", prog.Start, len(prog.Steps))
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"delay duration", step("wait").DelayFor, 36 * time.Hour},
		{"delay time of day", *step("clock").Clock, Clock{8, 30, 15}},
		{"delay until stays templated", step("until").DelayFor, time.Duration(0)},
		{"waitForRead timeout", step("read").TimeoutAfter, 2 * time.Hour},
		{"fetch timeout", step("fetch").TimeoutAfter, 20 * time.Second},
		{"fetch method default", step("fetch").HTTPMethod, "GET"},
		{"fetch default timeout", step("fetch2").TimeoutAfter, DefaultFetchTimeout},
		{"fetch method", step("fetch2").HTTPMethod, "POST"},
		{"throttle window", step("limit").WindowFor, 15 * time.Minute},
		{"digest window", step("dig").WindowFor, 90 * time.Second},
		{"digest time of day", *step("dig2").Clock, Clock{9, 0, 0}},
		{"digest without window", step("dig2").WindowFor, time.Duration(0)},
		{"send window", *step("mail").OpenHours, Window{Start: 22 * 3600, End: 6*3600 + 30*60 + 15, Days: 1<<1 | 1<<5}},
		{"no send window", step("in").OpenHours == nil, true},
		{"no clock", step("wait").Clock == nil, true},
		{"step time zone", step("clock").Zone.String(), "Europe/Paris"},
		{"UTC without a time zone", step("dig2").Zone, time.UTC},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// The branch's values are decoded once: the compiled condition evaluates without the
	// JSON, and the step keeps its JSON form for records.
	cond := step("check").Conditions[0].If
	s := Scope{Data: map[string]any{"n": float64(2), "plan": "free"}}
	if !cond.Eval(s, nil) {
		t.Errorf("compiled condition = false, want true for n=2, plan=free")
	}
	s.Data["plan"] = "pro"
	if cond.Eval(s, nil) {
		t.Errorf("compiled condition = true, want false for plan=pro")
	}
	if string(cond.And[0].Value) != "[1,2]" {
		t.Errorf("the condition's JSON value = %s, want it kept", cond.And[0].Value)
	}
}

// TestCompileRefusesBadValuesListingEveryProblem: every bad duration, time of day and
// window of one definition is named, none hides another.
func TestCompileRefusesBadValuesListingEveryProblem(t *testing.T) {
	_, err := Compile(json.RawMessage(`{"steps":[
		{"id":"a","type":"delay","duration":"soon","next":"b"},
		{"id":"b","type":"delay","timeOfDay":"25:00","next":"c"},
		{"id":"c","type":"inApp","content":{},"next":"d"},
		{"id":"d","type":"waitForRead","step":"c","timeout":"-1h","next":"e"},
		{"id":"e","type":"fetch","url":"https://x.example","timeout":"2m","next":"f"},
		{"id":"f","type":"throttle","limit":1,"window":"400d","next":"g"},
		{"id":"g","type":"digest","window":"0s","next":"h"},
		{"id":"h","type":"digest","timeOfDay":"noon","next":"i"},
		{"id":"i","type":"email","content":{},"sendWindow":{"start":"9am","end":"17:00"}}
	]}`), ck)
	var he *herald.Error
	if !errors.As(err, &he) || he.Code != herald.EINVALID {
		t.Fatalf("err = %v, want a 400", err)
	}
	want := []string{
		`steps[0].duration: "soon" is not a duration (use 90s, 15m, 2h, 3d)`,
		`steps[1].timeOfDay: "25:00" is not a time of day (use HH:MM or HH:MM:SS, e.g. 09:00)`,
		`steps[3].timeout: "-1h" must be positive`,
		"steps[4].timeout must be at most 30s",
		`steps[5].window: "400d" is longer than 366 days`,
		`steps[6].window: "0s" must be positive`,
		`steps[7].timeOfDay: "noon" is not a time of day (use HH:MM or HH:MM:SS, e.g. 09:00)`,
		`steps[8].sendWindow.start: "9am" is not a time of day (use HH:MM or HH:MM:SS, e.g. 09:00)`,
	}
	got := slices.Clone(he.Details)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}

// TestDefinitionCompileIsTheInterpretersPath: a decoded definition compiles with the same
// checks (what a run carries from before a rule existed is refused with the problem named),
// and an empty one is refused.
func TestDefinitionCompileIsTheInterpretersPath(t *testing.T) {
	def := Definition{Steps: []Step{
		{ID: "a", Type: TypeDelay, Duration: "5m", Next: "b"},
		{ID: "b", Type: TypeThrottle, Limit: 1, Window: "1h"},
	}}
	prog, err := def.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := prog.StepByID("a"); a.DelayFor != 5*time.Minute || prog.Start != "a" {
		t.Errorf("compiled a = %+v from %q", a, prog.Start)
	}
	def.Steps[1].Window = "forever"
	_, err = def.Compile()
	var he *herald.Error
	if !errors.As(err, &he) || !slices.Contains(he.Details, `steps[1].window: "forever" is not a duration (use 90s, 15m, 2h, 3d)`) {
		t.Errorf("err = %v, want the bad window named", err)
	}
	if _, err := (Definition{}).Compile(); err == nil {
		t.Error("an empty definition compiled")
	}
}
