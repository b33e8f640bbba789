// Package jsonshape inspects raw JSON values by type, so validators can report every
// wrongly typed field instead of stopping at the first decode error.
package jsonshape

import (
	"bytes"
	"encoding/json"
)

// Kind names the JSON type of a raw value: object, array, string, number, boolean, null,
// or "" when the value is absent.
func Kind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// Present reports whether a field was sent with a non-null value.
func Present(raw json.RawMessage) bool {
	k := Kind(raw)
	return k != "" && k != "null"
}

// Fields splits a JSON object into its members. It returns nil when raw is not an object.
func Fields(raw json.RawMessage) map[string]json.RawMessage {
	if Kind(raw) != "object" {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// Elements splits a JSON array. The second result is false when raw is not an array.
func Elements(raw json.RawMessage) ([]json.RawMessage, bool) {
	if Kind(raw) != "array" {
		return nil, false
	}
	var a []json.RawMessage
	if json.Unmarshal(raw, &a) != nil {
		return nil, false
	}
	return a, true
}

// String decodes a JSON string; ok is false for any other type.
func String(raw json.RawMessage) (string, bool) {
	if Kind(raw) != "string" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// Strings decodes an array of strings; ok is false when raw is not an array or any element
// is not a string.
func Strings(raw json.RawMessage) ([]string, bool) {
	items, ok := Elements(raw)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := String(it)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
