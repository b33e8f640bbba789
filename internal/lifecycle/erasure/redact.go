package erasure

import (
	"encoding/json"
	"sort"
	"strings"
)

// Redacted replaces an erased string wherever it stood in a stored payload.
const Redacted = "[erased]"

// minNeedle is the shortest identifying string replaced inside free text: shorter ones (a
// user "42", a profile flag "en") would rewrite unrelated words of other people's sends.
const minNeedle = 5

// Needles are the strings that identify a user inside payloads Herald keeps for others
// (send requests naming several recipients): its identifier and every string of its
// profile (email address, phone number, name, …), longest first so a longer one is
// replaced before a shorter one it contains.
func Needles(identifier string, profile json.RawMessage) []string {
	seen := map[string]bool{}
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len(s) >= minNeedle {
			seen[s] = true
		}
	}
	add(identifier)
	var v any
	if json.Unmarshal(profile, &v) == nil {
		walkStrings(v, add)
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}

func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	case map[string]any:
		for _, e := range x {
			walkStrings(e, f)
		}
	}
}

// LikePatterns are SQL LIKE patterns matching text that contains one of the needles.
func LikePatterns(needles []string) []string {
	out := make([]string, len(needles))
	for i, n := range needles {
		out[i] = "%" + likeEscape.Replace(n) + "%"
	}
	return out
}

var likeEscape = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// RecipientPattern is a LIKE pattern matching a stored request (jsonb as text) that names
// the identifier as an inline recipient, however short the identifier is.
func RecipientPattern(identifier string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as jsonb prints it
	_ = enc.Encode(identifier)
	return `%"identifier": ` + likeEscape.Replace(strings.TrimSuffix(b.String(), "\n")) + `%`
}

// RedactedRequest is a send request payload with a user taken out.
type RedactedRequest struct {
	Payload json.RawMessage
	// Recipients and Topics are what the request still reaches.
	Recipients, Topics int
	// Changed reports whether anything was taken out; RemovedRecipient whether that
	// included the user's inline recipient entry (which shifts the entries after it).
	Changed, RemovedRecipient bool
}

// RedactRequest takes a user out of a stored send request (the normalised form of
// herald.SendRequest): its inline recipient entry is removed, and every needle inside any
// other string or key (notification text, data, overrides) is replaced by Redacted.
func RedactRequest(payload json.RawMessage, identifier string, needles []string) (RedactedRequest, error) {
	var top map[string]any
	if err := json.Unmarshal(payload, &top); err != nil {
		return RedactedRequest{}, err
	}
	changed, removed := false, false
	if list, ok := top["recipients"].([]any); ok {
		kept := list[:0:0]
		for _, r := range list {
			if m, ok := r.(map[string]any); ok && m["identifier"] == identifier {
				removed = true
				continue
			}
			if s, ok := r.(string); ok && s == identifier {
				removed = true
				continue
			}
			kept = append(kept, r)
		}
		top["recipients"] = kept
		changed = removed
	}
	out := replaceNeedles(top, needles, &changed).(map[string]any)
	recipients, _ := out["recipients"].([]any)
	topics, _ := out["topics"].([]any)
	b, err := json.Marshal(out)
	if err != nil {
		return RedactedRequest{}, err
	}
	return RedactedRequest{Payload: b, Recipients: len(recipients), Topics: len(topics), Changed: changed, RemovedRecipient: removed}, nil
}

func replaceNeedles(v any, needles []string, changed *bool) any {
	switch x := v.(type) {
	case string:
		return replaceIn(x, needles, changed)
	case []any:
		for i, e := range x {
			x[i] = replaceNeedles(e, needles, changed)
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[replaceIn(k, needles, changed)] = replaceNeedles(e, needles, changed)
		}
		return out
	}
	return v
}

func replaceIn(s string, needles []string, changed *bool) string {
	for _, n := range needles {
		if strings.Contains(s, n) {
			s = strings.ReplaceAll(s, n, Redacted)
			*changed = true
		}
	}
	return s
}

// RedactText replaces every needle in s by Redacted.
func RedactText(s string, needles []string) string {
	var changed bool
	return replaceIn(s, needles, &changed)
}

// RedactJSON replaces every needle in the strings and keys of a JSON document by Redacted;
// a document that does not parse is returned as it is.
func RedactJSON(raw json.RawMessage, needles []string) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	var changed bool
	v = replaceNeedles(v, needles, &changed)
	if !changed {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return b
}

func redactPtr(s *string, needles []string) *string {
	if s == nil {
		return nil
	}
	r := RedactText(*s, needles)
	return &r
}
