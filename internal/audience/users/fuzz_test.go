package users

import (
	"encoding/json"
	"errors"
	"testing"

	herald "github.com/heraldhq/herald"
	js "github.com/heraldhq/herald/internal/platform/jsonshape"
)

// FuzzApplyPatch checks PATCH /profile bodies (JSON Patch arrays and JSON Merge Patch
// objects) on arbitrary profiles: it never panics; a refusal is a 400 naming the problem; and an applied patch
// yields a valid profile (a JSON object without an identifier key, within the size
// limit), so nothing invalid can reach the store. Seeds are in
// testdata/fuzz/FuzzApplyPatch; `go test -fuzz FuzzApplyPatch ./internal/audience/users/` explores further.
func FuzzApplyPatch(f *testing.F) {
	f.Add([]byte(`{"name":"Ann"}`), []byte(`[{"op":"add","path":"/tags","value":["a"]}]`))
	f.Add([]byte(`{"name":"Ann","a":{"b":1}}`), []byte(`{"name":null,"a":{"b":null,"c":[1]},"identifier":null}`))
	f.Fuzz(func(t *testing.T, profile, patch []byte) {
		if js.Kind(profile) != "object" || !json.Valid(profile) {
			return // stored profiles are always objects
		}
		out, err := ApplyPatch(profile, patch)
		if err != nil {
			var he *herald.Error
			if !errors.As(err, &he) || he.Code != herald.EINVALID || len(he.Details) == 0 {
				t.Fatalf("ApplyPatch(%q, %q) failed with %#v, want a 400", profile, patch, err)
			}
			return
		}
		var p herald.Problems
		CheckProfile("profile", out, &p)
		if len(p) > 0 || !json.Valid(out) {
			t.Fatalf("ApplyPatch(%q, %q) = %q, not a valid profile: %v", profile, patch, out, p)
		}
	})
}
