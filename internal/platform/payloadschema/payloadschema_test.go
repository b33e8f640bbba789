package payloadschema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/platform/payloadschema"
)

const orderSchema = `{"type":"object","required":["order","customer"],"properties":{
	"order":{"type":"object","required":["id"],"properties":{"id":{"type":"string"},"total":{"type":"number","minimum":0},
		"items":{"type":"array","items":{"type":"object","properties":{"qty":{"type":"integer","minimum":1}}}}}},
	"customer":{"type":"object","properties":{"name":{"type":"string"}}}}}`

// A valid schema compiles; data is checked against it with every problem listed, each at
// its JSON pointer under the base.
func TestValidateListsEveryProblem(t *testing.T) {
	s, probs := payloadschema.Compile(json.RawMessage(orderSchema))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	if got := s.Validate(json.RawMessage(`{"order":{"id":"A-1","total":3,"items":[{"qty":2}]},"customer":{"name":"Ada"}}`), "/data"); got != nil {
		t.Fatalf("valid data refused: %v", got)
	}
	got := s.Validate(json.RawMessage(`{"order":{"total":-1,"items":[{"qty":0}]},"customer":{"name":7}}`), "/data")
	want := map[string]bool{"/data/order": false, "/data/order/total": false, "/data/order/items/0/qty": false, "/data/customer/name": false}
	for _, p := range got {
		if _, ok := want[p.Pointer]; !ok {
			t.Errorf("unexpected problem %+v", p)
		}
		want[p.Pointer] = true
		if p.Message == "" {
			t.Errorf("no message at %s", p.Pointer)
		}
	}
	for ptr, seen := range want {
		if !seen {
			t.Errorf("no problem at %s (got %+v)", ptr, got)
		}
	}
	if got := s.Validate(nil, "/data"); len(got) != 1 || got[0].Pointer != "/data" || !strings.Contains(got[0].Message, "missing") {
		t.Errorf("no data: %+v", got)
	}
}

// Schemas that are not valid draft 2020-12, too large, or that refer outside themselves are
// refused, each problem listed.
func TestCompileRefuses(t *testing.T) {
	for name, tc := range map[string]struct {
		schema string
		want   []string
	}{
		"not an object":     {`[1]`, []string{"must be a JSON Schema object"}},
		"other draft":       {`{"$schema":"http://json-schema.org/draft-07/schema#"}`, []string{"draft 2020-12"}},
		"not type object":   {`{"type":"string"}`, []string{`type must be "object"`}},
		"meta-schema":       {`{"type":"object","properties":{"a":{"type":"strin"},"b":{"minimum":"x"}}}`, []string{"payloadSchema at /properties/a/type", "payloadSchema at /properties/b/minimum"}},
		"remote ref":        {`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`, []string{"remote $ref", "example.com"}},
		"file ref":          {`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`, []string{"remote $ref"}},
		"relative ref":      {`{"type":"object","properties":{"a":{"$ref":"other.json"}}}`, []string{"remote $ref"}},
		"missing local ref": {`{"type":"object","properties":{"a":{"$ref":"#/$defs/nope"}}}`, []string{"payloadSchema"}},
		"too large":         {`{"type":"object","description":"` + strings.Repeat("x", payloadschema.MaxSize) + `"}`, []string{"at most"}},
	} {
		t.Run(name, func(t *testing.T) {
			probs := payloadschema.Check(json.RawMessage(tc.schema))
			joined := strings.Join(probs, "\n")
			for _, w := range tc.want {
				if !strings.Contains(joined, w) {
					t.Errorf("problems %q lack %q", probs, w)
				}
			}
			if len(probs) < len(tc.want) && name == "meta-schema" {
				t.Errorf("not every problem listed: %q", probs)
			}
		})
	}
	if probs := payloadschema.Check(json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"id":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/id"}}}`)); probs != nil {
		t.Errorf("a self-contained schema with a local $ref refused: %q", probs)
	}
}

// BenchmarkValidate is what accept adds per send once a version's schema is cached.
func BenchmarkValidate(b *testing.B) {
	s, probs := payloadschema.Compile(json.RawMessage(orderSchema))
	if probs != nil {
		b.Fatal(probs)
	}
	data := json.RawMessage(`{"order":{"id":"A-1","total":12.5,"items":[{"sku":"x","qty":2}]},"customer":{"name":"Ada"}}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if p := s.Validate(data, "/data"); p != nil {
			b.Fatal(p)
		}
	}
}

// BenchmarkCompile is what the first send of a version pays (and what a cache saves).
func BenchmarkCompile(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, probs := payloadschema.Compile(json.RawMessage(orderSchema)); probs != nil {
			b.Fatal(probs)
		}
	}
}
