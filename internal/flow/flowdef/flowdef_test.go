package flowdef

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	herald "github.com/heraldhq/herald"
)

var ck = Checker{Channels: herald.Channels, TemplateExists: func(id string) bool { return id == "welcome" }, LayoutExists: func(id string) bool { return id == "plain" }}

func problems(t *testing.T, raw string) []string {
	t.Helper()
	_, err := Compile(json.RawMessage(raw), ck)
	var he *herald.Error
	if !errors.As(err, &he) {
		t.Fatalf("want validation error, got %v", err)
	}
	return he.Details
}

func TestCompileValidDefinition(t *testing.T) {
	def, err := Compile(json.RawMessage(`{"steps":[
		{"id":"notify","type":"inApp","template":"welcome","next":"wait"},
		{"id":"wait","type":"delay","duration":"1h","next":"check"},
		{"id":"check","type":"branch","conditions":[{"if":{"step":"notify","is":"notRead"},"next":"mail"}]},
		{"id":"mail","type":"email","content":{"subject":"You have news"}}
	]}`), ck)
	if err != nil {
		t.Fatal(err)
	}
	if def.Start != "notify" || len(def.Steps) != 4 {
		t.Errorf("def = %+v", def)
	}
}

func TestCompileReportsEveryProblem(t *testing.T) {
	cases := map[string]struct {
		raw  string
		want []string
	}{
		"not object": {`[]`, []string{"definition must be an object"}},
		"no steps":   {`{"steps":[]}`, []string{"definition.steps must be a non-empty array"}},
		"field types": {`{"steps":[{"id":1,"type":"inApp","count":"x","content":[]}]}`, []string{
			"steps[0].content must be an object", "steps[0].count must be a number", "steps[0].id must be a string"}},
		"unknown type and missing template": {`{"steps":[
			{"id":"a","type":"fax","next":"b"},
			{"id":"b","type":"email","template":"nope"}]}`, []string{
			`steps[0].type: unknown step type "fax" (channels: inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook; control: delay, digest, branch, waitForRead, fetch, throttle)`,
			`steps[1].template: no template "nope" in this app`}},
		"references and durations": {`{"steps":[
			{"id":"a","type":"delay","duration":"3x","next":"zz"},
			{"id":"a","type":"delay"},
			{"id":"c","type":"digest"},
			{"id":"d","type":"throttle","limit":0,"window":"0s"},
			{"id":"e","type":"fetch","url":"ftp://x","method":"PUT","timeout":"1h"}]}`, []string{
			`steps[1].id "a" is used twice`,
			`steps[0].next: no step with id "zz"`,
			`steps[0].duration: "3x" is not a duration (use 90s, 15m, 2h, 3d)`,
			"steps[1] (delay) needs exactly one of duration, until, timeOfDay",
			"steps[2] (digest) needs a window, a timeOfDay or a count",
			"steps[3].limit must be at least 1",
			`steps[3].window: "0s" must be positive`,
			"steps[4].url must be an absolute http(s) URL",
			"steps[4].method must be GET or POST",
			"steps[4].timeout must be at most 30s"}},
		"digest at a time of day": {`{"steps":[
			{"id":"a","type":"digest","window":"1h","timeOfDay":"08:00","next":"b"},
			{"id":"b","type":"digest","timeOfDay":"8 am","timezone":"Mars/Base","count":-1,"next":"c"},
			{"id":"c","type":"digest","timeOfDay":"08:00:30","timezone":"Europe/Paris","count":10}]}`, []string{
			"steps[0] (digest) takes a window or a timeOfDay, not both",
			`steps[1].timeOfDay: "8 am" is not a time of day (use HH:MM or HH:MM:SS, e.g. 09:00)`,
			`steps[1].timezone: unknown time zone "Mars/Base"`,
			"steps[1].count must be between 1 and 1000"}},
		"send windows": {`{"steps":[
			{"id":"a","type":"inApp","content":{},"sendWindow":{"days":["monday"]},"next":"b"},
			{"id":"b","type":"email","content":{},"sendWindow":{"start":"9:00","end":"17:00","days":["funday"]},"next":"c"},
			{"id":"c","type":"sms","content":{},"sendWindow":{"start":"09:00"},"next":"d"},
			{"id":"d","type":"sms","content":{},"sendWindow":{"start":"09:00","end":"09:00:00"},"next":"e"},
			{"id":"e","type":"sms","content":{},"sendWindow":{},"next":"f"},
			{"id":"f","type":"email","content":{},"sendWindow":{"days":["monday","friday"],"start":"22:00","end":"06:30:15"}}]}`, []string{
			"steps[0].sendWindow: in-app steps are written at once; only external channel steps take a send window",
			`steps[1].sendWindow.start: "9:00" is not a time of day (use HH:MM or HH:MM:SS, e.g. 09:00)`,
			`steps[1].sendWindow.days: "funday" is not a day (sunday … saturday)`,
			"steps[2].sendWindow: start and end go together",
			"steps[3].sendWindow: start and end must differ",
			"steps[4].sendWindow needs days, a start and end, or both"}},
		"send window type": {`{"steps":[{"id":"a","type":"email","content":{},"sendWindow":"9-5"}]}`, []string{"steps[0].sendWindow must be an object"}},
		"cycle": {`{"steps":[
			{"id":"a","type":"inApp","content":{},"next":"b"},
			{"id":"b","type":"delay","duration":"1m","next":"a"}]}`, []string{"steps form a cycle: a → b → a"}},
		"unreachable": {`{"steps":[
			{"id":"a","type":"inApp","content":{}},
			{"id":"b","type":"email","content":{}}]}`, []string{`steps[1] (id "b") is unreachable from the start step "a"`}},
		"branch reads a step that may not have run": {`{"steps":[
			{"id":"split","type":"branch","conditions":[{"if":{"field":"data.vip","op":"eq","value":true},"next":"inbox"}],"else":"check"},
			{"id":"inbox","type":"inApp","content":{},"next":"check"},
			{"id":"check","type":"branch","conditions":[{"if":{"step":"inbox","is":"read"},"next":"done"}]},
			{"id":"done","type":"email","content":{}}]}`, []string{`steps[2] reads step "inbox", which does not always run before it`}},
		"bad conditions": {`{"steps":[
			{"id":"a","type":"branch","conditions":[{"if":{"field":"x.y","op":"like"},"next":"b"},{"if":{},"next":"b"}]},
			{"id":"b","type":"waitForRead","step":"a","timeout":"1h","state":"gone"}]}`, []string{
			"steps[0].conditions[0].if.field must start with data., profile., user. or batch.",
			"steps[0].conditions[0].if.op must be one of eq, ne, gt, gte, lt, lte, contains, exists, notExists, in",
			"steps[0].conditions[1].if must have exactly one of field, step, and, or, not",
			`steps[1].step: "a" is not an inApp step`,
			"steps[1].state must be one of read, clicked, seen, interacted"}},
		"layouts": {`{"steps":[
			{"id":"a","type":"email","content":{"subject":"s","text":"t"},"layout":"fancy","next":"b"},
			{"id":"b","type":"email","template":"welcome","layout":"plain","next":"c"},
			{"id":"c","type":"sms","content":{"body":"x"},"layout":"plain","next":"d"},
			{"id":"d","type":"email","content":{"subject":"s","text":"t"},"layout":"plain"}]}`, []string{
			`steps[0].layout: no layout "fancy" in this app`,
			"steps[1].layout applies to email steps with inline content only",
			"steps[2].layout applies to email steps with inline content only"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := problems(t, tc.raw)
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"90s": 90 * time.Second, "3d": 72 * time.Hour, "1d12h": 36 * time.Hour, "15m": 15 * time.Minute} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "x", "-1h", "400d", "d"} {
		if _, err := parseDuration(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestNextTimeOfDay(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC) // 11:00 in Berlin
	if got := NextTimeOfDay(now, Clock{9, 0, 0}, berlin); !got.Equal(time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("09:00 Berlin after 11:00 Berlin: %s", got.UTC())
	}
	if got := NextTimeOfDay(now, Clock{12, 30, 0}, berlin); !got.Equal(time.Date(2026, 3, 1, 11, 30, 0, 0, time.UTC)) {
		t.Errorf("12:30 same day: %s", got.UTC())
	}
	if got := NextTimeOfDay(now, Clock{11, 0, 5}, berlin); !got.Equal(time.Date(2026, 3, 1, 10, 0, 5, 0, time.UTC)) {
		t.Errorf("11:00:05, five seconds ahead: %s", got.UTC())
	}
	for in, want := range map[string]Clock{"09:00": {9, 0, 0}, " 9:30 ": {9, 30, 0}, "23:59:59": {23, 59, 59}} {
		if got, err := parseTimeOfDay(in); err != nil || got != want {
			t.Errorf("parseTimeOfDay(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "24:00", "9", "09:60", "09:00:60", "09:00:00:00"} {
		if _, err := parseTimeOfDay(bad); err == nil {
			t.Errorf("parseTimeOfDay(%q) accepted", bad)
		}
	}
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	if loc := (&CompiledStep{Zone: tokyo}).Location(map[string]any{"timezone": "Nope/Nope"}); loc.String() != "Asia/Tokyo" {
		t.Errorf("Location fell back to %s, want the step's zone", loc)
	}
}

func TestConditionsAndScope(t *testing.T) {
	var data map[string]any
	_ = json.Unmarshal([]byte(`{"plan":"pro","amount":42,"tags":["a","b"],"order":{"id":"o-1"}}`), &data)
	s := Scope{Data: data, Profile: map[string]any{"country": "DE"}, User: map[string]any{"identifier": "u1"}}
	states := map[string]StepState{"inbox": {Delivered: true, Seen: true}}
	cond := func(raw string) Condition {
		var c Condition
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	for raw, want := range map[string]bool{
		`{"field":"data.plan","op":"eq","value":"pro"}`:                                                  true,
		`{"field":"data.amount","op":"gt","value":40}`:                                                   true,
		`{"field":"data.amount","op":"lte","value":41}`:                                                  false,
		`{"field":"data.tags","op":"contains","value":"b"}`:                                              true,
		`{"field":"profile.country","op":"in","value":["FR","DE"]}`:                                      true,
		`{"field":"data.missing","op":"notExists"}`:                                                      true,
		`{"field":"data.missing","op":"eq","value":null}`:                                                false,
		`{"step":"inbox","is":"notRead"}`:                                                                true,
		`{"step":"inbox","is":"seen"}`:                                                                   true,
		`{"and":[{"step":"inbox","is":"delivered"},{"field":"user.identifier","op":"eq","value":"u1"}]}`: true,
		`{"or":[{"step":"inbox","is":"read"},{"not":{"field":"data.plan","op":"eq","value":"pro"}}]}`:    false,
	} {
		if got := compiled(t, cond(raw)).Eval(s, states); got != want {
			t.Errorf("%s = %v, want %v", raw, got, want)
		}
	}
	if got := s.Expand("order {{data.order.id}} for {{user.identifier}} x{{data.amount}}{{data.none}}"); got != "order o-1 for u1 x42" {
		t.Errorf("expand: %q", got)
	}
}

func TestExplainListsEveryLeafWithItsValues(t *testing.T) {
	c := Condition{And: []Condition{
		{Field: "data.total", Op: "gt", Value: json.RawMessage(`100`)},
		{Not: &Condition{StepID: "inapp-1", Is: "read"}},
		{Field: "profile.missing", Op: "exists"},
	}}
	s := Scope{Data: map[string]any{"total": float64(120)}, Profile: map[string]any{}}
	got := compiled(t, c).Explain(s, map[string]StepState{"inapp-1": {Delivered: true}})
	if len(got) != 3 {
		t.Fatalf("got %d leaves, want 3: %+v", len(got), got)
	}
	if got[0].Actual != float64(120) || !got[0].Found || !got[0].Result {
		t.Errorf("first leaf = %+v, want total 120 found and true", got[0])
	}
	if got[1].Step != "inapp-1" || !got[1].Negated || got[1].Result || got[1].State == nil || !got[1].State.Delivered {
		t.Errorf("second leaf = %+v, want the negated read test of inapp-1, false, with its state", got[1])
	}
	if got[2].Found || got[2].Result || got[2].Actual != nil {
		t.Errorf("third leaf = %+v, want not found and false", got[2])
	}
}

// compiled compiles a condition as a branch of a definition whose in-app steps are inbox
// and inapp-1 (conditions evaluate compiled: their values decoded once).
func compiled(t *testing.T, c Condition) Condition {
	t.Helper()
	def := &Definition{Steps: []Step{{ID: "inbox", Type: "inApp"}, {ID: "inapp-1", Type: "inApp"}}}
	var p herald.Problems
	out := compileCondition(def, map[string]int{"inbox": 1, "inapp-1": 2}, c, "if", &p)
	if len(p) > 0 {
		t.Fatalf("condition does not compile: %q", p)
	}
	return out
}
