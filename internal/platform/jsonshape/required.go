package jsonshape

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	herald "github.com/heraldhq/herald"
)

// RequiredString reads the field name of an object as a non-blank string of at most max
// characters, recording a problem otherwise.
func RequiredString(f map[string]json.RawMessage, name string, max int, p *herald.Problems) string {
	v, ok := String(f[name])
	switch {
	case !ok:
		p.Addf("%s must be a string", name)
	case strings.TrimSpace(v) == "":
		p.Addf("%s should not be empty", name)
	case utf8.RuneCountInString(v) > max:
		p.Addf("%s must be at most %d characters", name, max)
	}
	return v
}
