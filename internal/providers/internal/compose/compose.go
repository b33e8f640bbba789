// Package compose turns a rendered providers.Message into the pieces provider payloads are
// made of: plain text, sender and recipient addresses, override objects picked and merged
// into request bodies, data flattened to strings, and keys fitted to a provider's limits.
package compose

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/mail"
	"strings"

	"github.com/heraldhq/herald/internal/providers"
)

// Text is the plain-text form of a short message: the title, the body and the link on
// separate lines (each only when set; the link is left out when the body already shows it).
func Text(msg providers.Message) string {
	var parts []string
	for _, s := range []string{msg.Title, msg.Body} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	if u := strings.TrimSpace(msg.URL); u != "" && !strings.Contains(msg.Body, u) {
		parts = append(parts, u)
	}
	return strings.Join(parts, "\n")
}

// Sender is who an email comes from.
type Sender struct {
	Email   string
	Name    string
	ReplyTo string
}

// SenderOf returns the message's sender, falling back to the instance's defaults field by
// field (override.channel.email wins over the configuration).
func SenderOf(msg providers.Message, defaults Sender) Sender {
	s := defaults
	if msg.From != "" {
		s.Email = msg.From
	}
	if msg.FromName != "" {
		s.Name = msg.FromName
	}
	if msg.ReplyTo != "" {
		s.ReplyTo = msg.ReplyTo
	}
	return s
}

// Address formats "Name <email>" (RFC 5322; a non-ASCII name is RFC 2047 encoded), or the
// bare address without a name.
func Address(name, email string) string {
	if name == "" {
		return email
	}
	return (&mail.Address{Name: name, Address: email}).String()
}

// Unique drops empty addresses, duplicates (case-insensitive) and those in skip: providers
// reject a message that names an address twice across to, cc and bcc.
func Unique(addrs []string, skip ...string) []string {
	seen := map[string]bool{}
	for _, s := range skip {
		seen[strings.ToLower(strings.TrimSpace(s))] = true
	}
	var out []string
	for _, a := range addrs {
		k := strings.ToLower(strings.TrimSpace(a))
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, strings.TrimSpace(a))
	}
	return out
}

// CheckEmail refuses, permanently, an email that cannot be sent: no recipient address or
// no body.
func CheckEmail(msg providers.Message) error {
	if strings.TrimSpace(msg.To.Email) == "" {
		return providers.Permanent("no email address")
	}
	if msg.HTML == "" && msg.Text == "" {
		return providers.Permanent("the email has no body")
	}
	return nil
}

// Object decodes a JSON object; it returns nil for anything else.
func Object(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// Pick returns the listed keys of obj that are present.
func Pick(obj map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := obj[k]; ok {
			out[k] = v
		}
	}
	return out
}

// Merge merges src into dst: objects merge key by key, recursively; any other value
// (including arrays and null) replaces what dst had.
func Merge(dst, src map[string]any) {
	for k, v := range src {
		sub, isObj := v.(map[string]any)
		cur, curObj := dst[k].(map[string]any)
		if isObj && curObj {
			Merge(cur, sub)
			continue
		}
		dst[k] = v
	}
}

// String reads a string member of obj ("" when absent or not a string).
func String(obj map[string]any, key string) string {
	s, _ := obj[key].(string)
	return s
}

// DataStrings flattens a JSON object into string values, as FCM's data map requires:
// strings stay as they are, other values become their JSON text.
func DataStrings(raw json.RawMessage) map[string]string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
		} else {
			out[k] = string(v)
		}
	}
	return out
}

// FitKey returns key when it fits in max bytes, else a hex digest of it cut to max: a
// stable stand-in for an idempotency key in a field with a length limit.
func FitKey(key string, max int) string {
	if len(key) <= max {
		return key
	}
	return Digest(key, max)
}

// Digest is the hex SHA-256 of s cut to n characters (n ≤ 64).
func Digest(s string, n int) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:min(n, 64)]
}

// Truncate cuts s to at most n runes, ending with an ellipsis when cut.
func Truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
