package flowdef

import (
	"encoding/json"
	"errors"
	"testing"

	herald "github.com/heraldhq/herald"
)

// FuzzParse checks workflow definition compilation (Compile) on arbitrary JSON: it never panics; a
// refusal is a 400 naming at least one problem; and an accepted definition is one the
// interpreter can run: a start step that exists, every reference resolving, within the
// step limit. Seeds are in testdata/fuzz/FuzzParse; `go test -fuzz FuzzParse ./internal/flow/flowdef/`
// explores further.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"steps":[{"id":"a","type":"inApp","template":"welcome"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		def, err := Compile(json.RawMessage(raw), ck)
		if err != nil {
			var he *herald.Error
			if !errors.As(err, &he) || he.Code != herald.EINVALID || len(he.Details) == 0 {
				t.Fatalf("Compile(%q) failed with %#v, want a 400 listing the problems", raw, err)
			}
			return
		}
		if len(def.Steps) == 0 || len(def.Steps) > MaxSteps {
			t.Fatalf("Compile(%q) accepted %d steps", raw, len(def.Steps))
		}
		ids := map[string]bool{}
		for _, s := range def.Steps {
			ids[s.ID] = true
		}
		if !ids[def.Start] {
			t.Fatalf("Compile(%q) accepted start %q, which names no step", raw, def.Start)
		}
		for _, s := range def.Steps {
			if s.Next != "" && !ids[s.Next] {
				t.Fatalf("Compile(%q) accepted step %q whose next %q names no step", raw, s.ID, s.Next)
			}
		}
		// What compiles from JSON compiles again from the decoded form (the interpreter's
		// path), to the same program.
		again, err := def.Definition.Compile()
		if err != nil {
			t.Fatalf("Compile(%q) accepted a definition whose decoded form does not compile: %v", raw, err)
		}
		if len(again.Steps) != len(def.Steps) || again.Start != def.Start {
			t.Fatalf("Compile(%q): the decoded form compiles to %d steps from %q, want %d from %q", raw, len(again.Steps), again.Start, len(def.Steps), def.Start)
		}
	})
}
