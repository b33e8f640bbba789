package herald

import (
	"bytes"
	"os"
	"testing"

	"github.com/heraldhq/herald/sdk/go/internal/typegen"
)

// TestTypesAreFresh fails when types_gen.go differs from a fresh generation from the
// developer API's OpenAPI document: run `make sdk-go-types` after editing api/v3/openapi.json.
func TestTypesAreFresh(t *testing.T) {
	spec, err := os.ReadFile("../../api/v3/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := typegen.Generate(spec, "herald")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("types_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("types_gen.go is stale: run `make sdk-go-types` (go run ./internal/cmd/typegen in sdk/go)")
	}
}
