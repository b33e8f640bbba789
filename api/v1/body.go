package v1

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/jsonshape"
)

// body reads a JSON object body field by field, collecting every type problem so a caller
// sees all of them at once. An empty body counts as {}.
type body struct {
	f map[string]json.RawMessage
	p herald.Problems
}

func readBody(c *fiber.Ctx) (*body, error) {
	raw := bytes.TrimSpace(c.Body())
	if len(raw) == 0 {
		return &body{f: map[string]json.RawMessage{}}, nil
	}
	f := jsonshape.Fields(raw)
	if f == nil {
		return nil, herald.Invalid("body must be a JSON object")
	}
	return &body{f: f}, nil
}

// str reads a string field; required fields must be present and non-empty.
func (b *body) str(name string, required bool) string {
	raw := b.f[name]
	if !jsonshape.Present(raw) {
		if required {
			b.p.Addf("%s should not be empty", name)
		}
		return ""
	}
	s, ok := jsonshape.String(raw)
	if !ok {
		b.p.Addf("%s must be a string", name)
		return ""
	}
	if required && strings.TrimSpace(s) == "" {
		b.p.Addf("%s should not be empty", name)
	}
	return s
}

// optStr reads an optional string field, nil when absent.
func (b *body) optStr(name string) *string {
	if !jsonshape.Present(b.f[name]) {
		return nil
	}
	s, ok := jsonshape.String(b.f[name])
	if !ok {
		b.p.Addf("%s must be a string", name)
		return nil
	}
	return &s
}

// boolean reads an optional boolean field.
func (b *body) boolean(name string) *bool {
	raw := b.f[name]
	if !jsonshape.Present(raw) {
		return nil
	}
	if jsonshape.Kind(raw) != "boolean" {
		b.p.Addf("%s must be a boolean", name)
		return nil
	}
	v := string(bytes.TrimSpace(raw)) == "true"
	return &v
}

// object reads an optional object field.
func (b *body) object(name string) json.RawMessage {
	raw := b.f[name]
	if !jsonshape.Present(raw) {
		return nil
	}
	if jsonshape.Kind(raw) != "object" {
		b.p.Addf("%s must be an object", name)
		return nil
	}
	return raw
}

// problems returns the collected problems plus more, or nil.
func (b *body) err(more ...herald.Problems) error {
	p := b.p
	for _, m := range more {
		p = append(p, m...)
	}
	return p.Err()
}

// pathID reads a positive integer path parameter.
func pathID(c *fiber.Ctx, name string, p *herald.Problems) int64 {
	n, err := strconv.ParseInt(c.Params(name), 10, 64)
	if err != nil || n <= 0 {
		p.Addf("%s must be a positive integer", name)
		return 0
	}
	return n
}

// param returns a path parameter, percent-decoded and copied out of Fiber's buffer.
func param(c *fiber.Ctx, name string) string {
	raw := c.Params(name)
	// Undecodable or non-UTF-8 values stay encoded: they then name nothing.
	if v, err := url.PathUnescape(raw); err == nil && utf8.ValidString(v) {
		return v
	}
	return strings.Clone(raw)
}
