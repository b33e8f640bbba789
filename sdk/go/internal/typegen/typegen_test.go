package typegen

import (
	"strings"
	"testing"
)

// A field added to the document appears in the generated types with its JSON name, an
// optional one with omitempty, a date-time as time.Time and an enum as typed constants.
func TestGenerate(t *testing.T) {
	spec := `{"components":{"schemas":{
		"Thing":{"type":"object","required":["id"],"properties":{
			"id":{"type":"integer","format":"int64"},
			"seenAt":{"type":"string","format":"date-time","nullable":true},
			"kind":{"type":"string","enum":["a","b-c"]},
			"tags":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}},
			"owner":{"$ref":"#/components/schemas/Owner"}}},
		"Owner":{"type":"object","properties":{"apiUrl":{"type":"string","description":"where"}}}}}}`
	out, err := Generate([]byte(spec), "p")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Join(strings.Fields(string(out)), " ") // alignment aside
	for _, want := range []string{
		"ID int64 `json:\"id\"`",
		"SeenAt *time.Time `json:\"seenAt,omitempty\"`",
		"Kind ThingKind `json:\"kind,omitempty\"`",
		"ThingKindBC ThingKind = \"b-c\"",
		"Tags []ThingTagsItem",
		"Owner *Owner `json:\"owner,omitempty\"`",
		"// APIURL is where",
		"import \"time\"",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q in\n%s", want, src)
		}
	}
}
