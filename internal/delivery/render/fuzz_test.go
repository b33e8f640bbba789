package render

import (
	"errors"
	"strings"
	"testing"
)

// FuzzRender checks template parsing and execution on arbitrary templates and data: it
// never panics or runs away (output and steps are bounded); a failure is a *render.Error;
// in HTML mode a value printed with {{…}} can never open a tag; and the Missing hook does
// not change the output. Seeds are in
// testdata/fuzz/FuzzRender; `go test -fuzz FuzzRender ./internal/delivery/render/` explores further.
func FuzzRender(f *testing.F) {
	f.Add("Hello {{user.name}}{{#each items}} {{@index}}:{{this}}{{/each}}", []byte(`{"user":{"name":"<b>"},"items":[1,2]}`))
	f.Fuzz(func(t *testing.T, src string, data []byte) {
		v, err := DecodeJSON(data)
		if err != nil {
			v = nil
		}
		const limit = 64 << 10
		for _, html := range []bool{false, true} {
			out, err := Render(src, v, Options{HTML: html, MaxOutput: limit, Translate: func(key string) (string, bool) {
				return "{{" + key + "}}", true
			}})
			if err != nil {
				var re *Error
				if !errors.As(err, &re) {
					t.Fatalf("Render(%q) failed with %T %v, want a *render.Error", src, err, err)
				}
				continue
			}
			if len(out) > limit {
				t.Fatalf("Render(%q) wrote %d bytes, over the limit of %d", src, len(out), limit)
			}
			// The Missing hook (template previews) only observes: same output, and each
			// report names a path once.
			seen := map[Missing]bool{}
			hooked, err := Render(src, v, Options{HTML: html, MaxOutput: limit, Translate: func(key string) (string, bool) {
				return "{{" + key + "}}", true
			}, Missing: func(m Missing) {
				if seen[m] {
					t.Fatalf("Render(%q) reported %+v twice", src, m)
				}
				seen[m] = true
			}})
			if err != nil || hooked != out {
				t.Fatalf("Render(%q) with the Missing hook printed %q (%v), without %q", src, hooked, err, out)
			}
		}
		// Escaping: whatever the data, a {{value}} in HTML mode prints no markup.
		out, err := Render("{{v}}", map[string]any{"v": string(data)}, Options{HTML: true})
		if err != nil || strings.ContainsAny(out, "<>\"'") {
			t.Fatalf("{{v}} with %q printed %q (%v)", data, out, err)
		}
	})
}
