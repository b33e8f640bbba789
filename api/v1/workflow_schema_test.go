package v1_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// semantic are the problems of flowdef.Compile that a JSON Schema cannot express: references
// between steps, the shape of the graph, the bounds of durations, time zones. Every other
// problem is structural, and the published schema must agree with the validator on it.
var semantic = regexp.MustCompile(`no step with id|is used twice|form a cycle|is unreachable|does not always run before|` +
	`is not an inApp step|is not a channel step|must be positive|is longer than|timeout must be at most|unknown time zone`)

func workflowSchema(t *testing.T) (*openapi3.T, *openapi3.Schema) {
	t.Helper()
	cs, err := stacktest.Contracts()
	if err != nil {
		t.Fatal(err)
	}
	doc := cs[0].Doc
	ref := doc.Components.Schemas["WorkflowDefinition"]
	if ref == nil || ref.Value == nil {
		t.Fatal("/v1/openapi.json has no components.schemas.WorkflowDefinition")
	}
	return doc, ref.Value
}

// definitionCorpus is every definition the test feeds to both: the fuzz seeds of
// flowdef.FuzzParse, the example of docs/workflows.md, and cases for each rule.
func definitionCorpus(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	seeds, _ := filepath.Glob("../../internal/flow/flowdef/testdata/fuzz/FuzzParse/*")
	for _, f := range seeds {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(b), "\n", 2)
		lit := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[1]), "[]byte("), ")")
		s, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out["seed "+filepath.Base(f)] = s
	}
	if len(seeds) < 10 {
		t.Fatalf("only %d fuzz seeds found", len(seeds))
	}
	md, err := os.ReadFile("../../docs/workflows.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(md), "```json\n")
	example, _, _ := strings.Cut(rest, "```")
	out["docs/workflows.md"] = example

	step := func(s string) string { return `{"steps":[` + s + `,{"id":"z","type":"inApp","template":"t"}]}` }
	for name, s := range map[string]string{
		"inApp template":          `{"id":"a","type":"inApp","template":"t"}`,
		"email content":           `{"id":"a","type":"email","content":{"subject":"s","text":"x"}}`,
		"channel neither":         `{"id":"a","type":"sms"}`,
		"channel both":            `{"id":"a","type":"sms","template":"t","content":{"body":"x"}}`,
		"channel content array":   `{"id":"a","type":"sms","content":["x"]}`,
		"blank id":                `{"id":"  ","type":"inApp","template":"t"}`,
		"no id":                   `{"type":"inApp","template":"t"}`,
		"no type":                 `{"id":"a","template":"t"}`,
		"unknown type":            `{"id":"a","type":"fax","template":"t"}`,
		"id number":               `{"id":1,"type":"inApp","template":"t"}`,
		"next number":             `{"id":"a","type":"inApp","template":"t","next":2}`,
		"stray field wrong type":  `{"id":"a","type":"inApp","template":"t","retries":"x"}`,
		"stray field right type":  `{"id":"a","type":"inApp","template":"t","retries":3}`,
		"delay duration":          `{"id":"a","type":"delay","duration":"1d12h","next":"z"}`,
		"delay bad duration":      `{"id":"a","type":"delay","duration":"soon","next":"z"}`,
		"delay zero":              `{"id":"a","type":"delay","duration":"0s","next":"z"}`,
		"delay too long":          `{"id":"a","type":"delay","duration":"400d","next":"z"}`,
		"delay two":               `{"id":"a","type":"delay","duration":"1h","until":"{{data.at}}","next":"z"}`,
		"delay none":              `{"id":"a","type":"delay","next":"z"}`,
		"delay until time":        `{"id":"a","type":"delay","until":"2030-01-02T03:04:05Z","next":"z"}`,
		"delay until bad":         `{"id":"a","type":"delay","until":"tomorrow","next":"z"}`,
		"delay timeOfDay":         `{"id":"a","type":"delay","timeOfDay":"9:30","timezone":"Europe/Oslo","next":"z"}`,
		"delay timeOfDay bad":     `{"id":"a","type":"delay","timeOfDay":"25:00","next":"z"}`,
		"delay bad zone":          `{"id":"a","type":"delay","timeOfDay":"09:30","timezone":"Mars/Base","next":"z"}`,
		"digest count":            `{"id":"a","type":"digest","count":5,"next":"z"}`,
		"digest timeOfDay":        `{"id":"a","type":"digest","timeOfDay":"08:00","timezone":"Europe/Oslo","next":"z"}`,
		"digest timeOfDay count":  `{"id":"a","type":"digest","timeOfDay":"08:00:30","count":10,"next":"z"}`,
		"digest timeOfDay window": `{"id":"a","type":"digest","timeOfDay":"08:00","window":"1h","next":"z"}`,
		"digest timeOfDay bad":    `{"id":"a","type":"digest","timeOfDay":"8 am","next":"z"}`,
		"digest bad zone":         `{"id":"a","type":"digest","timeOfDay":"08:00","timezone":"Mars/Base","next":"z"}`,
		"delay timeOfDay seconds": `{"id":"a","type":"delay","timeOfDay":"09:30:15","next":"z"}`,
		"digest none":             `{"id":"a","type":"digest","key":"k","next":"z"}`,
		"digest count big":        `{"id":"a","type":"digest","count":1001,"next":"z"}`,
		"digest count fraction":   `{"id":"a","type":"digest","count":1.5,"next":"z"}`,
		"digest count string":     `{"id":"a","type":"digest","count":"5","next":"z"}`,
		"branch":                  `{"id":"a","type":"branch","conditions":[{"if":{"field":"data.x","op":"in","value":[1,2]},"next":"z"}]}`,
		"branch no conditions":    `{"id":"a","type":"branch","else":"z"}`,
		"branch empty conditions": `{"id":"a","type":"branch","conditions":[],"else":"z"}`,
		"branch no next":          `{"id":"a","type":"branch","conditions":[{"if":{"field":"data.x","op":"exists"}}],"else":"z"}`,
		"branch bad root":         `{"id":"a","type":"branch","conditions":[{"if":{"field":"env.x","op":"eq","value":1},"next":"z"}]}`,
		"branch bad op":           `{"id":"a","type":"branch","conditions":[{"if":{"field":"data.x","op":"like"},"next":"z"}]}`,
		"branch two forms":        `{"id":"a","type":"branch","conditions":[{"if":{"field":"data.x","op":"exists","not":{"field":"data.y","op":"exists"}},"next":"z"}]}`,
		"branch no form":          `{"id":"a","type":"branch","conditions":[{"if":{},"next":"z"}]}`,
		"branch nested":           `{"id":"a","type":"branch","conditions":[{"if":{"or":[{"not":{"field":"user.identifier","op":"eq","value":"x"}},{"and":[{"field":"batch.count","op":"gt","value":2}]}]},"next":"z"}]}`,
		"branch nested bad":       `{"id":"a","type":"branch","conditions":[{"if":{"or":[{"not":{"field":"user.identifier","op":"is"}}]},"next":"z"}]}`,
		"branch bad is":           `{"id":"a","type":"branch","conditions":[{"if":{"step":"z","is":"opened"},"next":"z"}]}`,
		"branch conditions obj":   `{"id":"a","type":"branch","conditions":{},"else":"z"}`,
		"wait missing timeout":    `{"id":"a","type":"waitForRead","step":"z"}`,
		"wait bad state":          `{"id":"a","type":"waitForRead","step":"z","state":"opened","timeout":"1h"}`,
		"wait no step":            `{"id":"a","type":"waitForRead","timeout":"1h"}`,
		"fetch":                   `{"id":"a","type":"fetch","url":"http://example.com","method":"GET","headers":{"X":"y"},"timeout":"5s","next":"z"}`,
		"fetch bad url":           `{"id":"a","type":"fetch","url":"ftp://example.com","next":"z"}`,
		"fetch no url":            `{"id":"a","type":"fetch","next":"z"}`,
		"fetch bad method":        `{"id":"a","type":"fetch","url":"https://example.com","method":"PUT","next":"z"}`,
		"fetch retries":           `{"id":"a","type":"fetch","url":"https://example.com","retries":11,"next":"z"}`,
		"fetch header number":     `{"id":"a","type":"fetch","url":"https://example.com","headers":{"X":1},"next":"z"}`,
		"fetch slow":              `{"id":"a","type":"fetch","url":"https://example.com","timeout":"1m","next":"z"}`,
		"throttle":                `{"id":"a","type":"throttle","limit":1,"window":"1h","key":"{{data.k}}","next":"z"}`,
		"throttle no window":      `{"id":"a","type":"throttle","limit":1,"next":"z"}`,
		"throttle zero":           `{"id":"a","type":"throttle","limit":0,"window":"1h","next":"z"}`,
	} {
		out[name] = step(s)
	}
	out["dangling next"] = `{"steps":[{"id":"a","type":"inApp","template":"t","next":"nowhere"}]}`
	out["start number"] = `{"start":1,"steps":[{"id":"a","type":"inApp","template":"t"}]}`
	out["steps missing"] = `{"start":"a"}`
	out["steps object"] = `{"steps":{}}`
	out["too many steps"] = `{"steps":[` + strings.TrimSuffix(strings.Repeat(`{"id":"a","type":"inApp","template":"t"},`, 101), ",") + `]}`
	return out
}

// TestWorkflowDefinitionSchemaAgreesWithTheValidator feeds every definition of the corpus
// to the published JSON Schema and to flowdef.Compile: a definition the validator accepts
// must match the schema, and one it refuses must fail the schema exactly when one of its
// problems is structural (a rule the schema expresses).
func TestWorkflowDefinitionSchemaAgreesWithTheValidator(t *testing.T) {
	doc, schema := workflowSchema(t)
	ck := flowdef.Checker{Channels: herald.Channels}
	var valid, structural, semanticOnly int
	for name, raw := range definitionCorpus(t) {
		var value any
		schemaErr := json.Unmarshal([]byte(raw), &value)
		if schemaErr == nil {
			schemaErr = doc.ValidateSchemaJSON(schema, value)
		}
		_, err := flowdef.Compile(json.RawMessage(raw), ck)
		var problems []string
		if err != nil {
			he, ok := err.(*herald.Error)
			if !ok {
				t.Fatalf("%s: %v", name, err)
			}
			problems = he.Details
			if len(problems) == 0 {
				problems = []string{he.Message}
			}
		}
		isStructural := slices.ContainsFunc(problems, func(p string) bool { return !semantic.MatchString(p) })
		switch {
		case err == nil:
			valid++
			if schemaErr != nil {
				t.Errorf("%s: the validator accepts it, the schema refuses it: %v\n%s", name, schemaErr, raw)
			}
		case isStructural:
			structural++
			if schemaErr == nil {
				t.Errorf("%s: the schema accepts it, the validator refuses it: %q\n%s", name, problems, raw)
			}
		default:
			semanticOnly++
			if schemaErr != nil {
				t.Errorf("%s: the schema refuses it for a rule the validator does not break (%q): %v\n%s", name, problems, schemaErr, raw)
			}
		}
	}
	t.Logf("corpus: %d valid, %d structural, %d semantic-only", valid, structural, semanticOnly)
	// The corpus exercises all three outcomes.
	if valid < 10 || structural < 20 || semanticOnly < 5 {
		t.Errorf("corpus: %d valid, %d structural, %d semantic-only", valid, structural, semanticOnly)
	}
}

// TestWorkflowDefinitionSchemaCoversEveryStep checks the schema against the validator's
// own tables: one variant per step type (every channel and control type), and every field
// the validator types, with the same JSON type.
func TestWorkflowDefinitionSchemaCoversEveryStep(t *testing.T) {
	doc, _ := workflowSchema(t)
	step := doc.Components.Schemas["WorkflowStep"].Value
	if step.Discriminator == nil || step.Discriminator.PropertyName != "type" {
		t.Fatalf("WorkflowStep has no discriminator on type")
	}
	var types []string
	for typ := range step.Discriminator.Mapping {
		types = append(types, typ)
	}
	want := append(slices.Clone(herald.Channels), flowdef.ControlTypes()...)
	slices.Sort(types)
	slices.Sort(want)
	if !slices.Equal(types, want) {
		t.Errorf("discriminator maps %v, the validator knows %v", types, want)
	}
	jsonType := func(s *openapi3.Schema) string {
		for _, sub := range append([]*openapi3.SchemaRef{{Value: s}}, s.AllOf...) {
			if sub.Value.Type != nil && len(*sub.Value.Type) == 1 {
				if typ := (*sub.Value.Type)[0]; typ == "integer" {
					return "number"
				} else {
					return typ
				}
			}
		}
		return ""
	}
	kinds := flowdef.FieldKinds()
	for field, kind := range kinds {
		p := step.Properties[field]
		if p == nil {
			t.Errorf("WorkflowStep does not type field %s (%s)", field, kind)
		} else if got := jsonType(p.Value); got != kind {
			t.Errorf("WorkflowStep.%s is %q, the validator wants %s", field, got, kind)
		}
	}
	for _, ref := range step.OneOf {
		name := strings.TrimPrefix(ref.Ref, "#/components/schemas/")
		for field, p := range ref.Value.Properties {
			if kinds[field] == "" {
				t.Errorf("%s.%s is not a field the validator knows", name, field)
			} else if got := jsonType(p.Value); got != kinds[field] {
				t.Errorf("%s.%s is %q, the validator wants %s", name, field, got, kinds[field])
			}
		}
		for typ, target := range step.Discriminator.Mapping {
			if strings.HasSuffix(target.Ref, "/"+name) && !slices.Contains(toStrings(ref.Value.Properties["type"].Value.Enum), typ) {
				t.Errorf("%s is mapped from %q but its type does not allow it", name, typ)
			}
		}
	}
}

func toStrings(vs []any) []string {
	var out []string
	for _, v := range vs {
		s, _ := v.(string)
		out = append(out, s)
	}
	return out
}
