package v1

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
)

// integer reads an optional integer field.
func (b *body) integer(name string) *int {
	raw := b.f[name]
	if !jsonshape.Present(raw) {
		return nil
	}
	var f float64
	if jsonshape.Kind(raw) != "number" || json.Unmarshal(raw, &f) != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		b.p.Addf("%s must be an integer number", name)
		return nil
	}
	n := int(f)
	return &n
}

// strings reads an optional array of strings; nil when absent.
func (b *body) strings(name string) []string {
	raw := b.f[name]
	if !jsonshape.Present(raw) {
		return nil
	}
	v, ok := jsonshape.Strings(raw)
	if !ok {
		b.p.Addf("%s must be an array of strings", name)
		return nil
	}
	return v
}

// stringList reads an optional array of strings where an empty array means something (it
// clears a list): ok is false when the field is absent, null or not an array of strings.
func (b *body) stringList(name string) (v []string, ok bool) {
	if !b.has(name) {
		return nil, false
	}
	v = b.strings(name)
	return v, v != nil || jsonshape.Kind(b.f[name]) == "array"
}

// ids reads an optional array of positive integers; nil when absent.
func (b *body) ids(name string) []int64 {
	raw := b.f[name]
	if !jsonshape.Present(raw) {
		return nil
	}
	items, ok := jsonshape.Elements(raw)
	if !ok {
		b.p.Addf("%s must be an array of ids", name)
		return nil
	}
	out := make([]int64, 0, len(items))
	for _, it := range items {
		var n float64
		if jsonshape.Kind(it) != "number" || json.Unmarshal(it, &n) != nil || n != math.Trunc(n) || n < 1 || n > math.MaxInt64/2 {
			b.p.Addf("%s must be an array of ids", name)
			return nil
		}
		out = append(out, int64(n))
	}
	return out
}

// raw returns a field as sent (nil when absent or null).
func (b *body) raw(name string) json.RawMessage {
	if !jsonshape.Present(b.f[name]) {
		return nil
	}
	return b.f[name]
}

// queryBool reads an optional boolean query parameter ("true" or "false").
func queryBool(c *fiber.Ctx, name string, p *herald.Problems) *bool {
	raw := c.Query(name)
	if raw == "" {
		return nil
	}
	v, err := strconv.ParseBool(raw)
	if err != nil || (raw != "true" && raw != "false") {
		p.Addf("%s must be true or false", name)
		return nil
	}
	return &v
}

// has reports whether a field was sent with a value (null counts as absent).
func (b *body) has(name string) bool {
	_, ok := b.f[name]
	return ok && jsonshape.Present(b.f[name])
}
