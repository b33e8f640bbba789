package channels

import (
	"bytes"
	"encoding/json"
	"strings"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/providers/configschema"
)

// An instance's secrets were entered for its destinations (the keys its schema marks
// "x-destination": base URL, host, port, region, TLS mode). Changing a destination is
// re-pointing the instance, so it needs the role that may decide where the app's
// credentials go (owner or admin: InstanceInput.MayRedirect), and every secret the
// instance holds must be entered again in the same change: a stored secret is never sent
// to a destination it was not entered for, by a save or by its connection test.

// changedDestinations returns the destination keys whose value differs between the stored
// configuration and the updated one (a key left out counts as its schema default), sorted.
func changedDestinations(schema *configschema.Schema, before, after map[string]json.RawMessage) []string {
	if schema == nil {
		return nil
	}
	var out []string
	for _, name := range schema.DestinationFields() {
		if !sameValue(effective(schema, before, name), effective(schema, after, name)) {
			out = append(out, name)
		}
	}
	return out
}

// effective is a key's value, its schema default when left out or null.
func effective(schema *configschema.Schema, config map[string]json.RawMessage, name string) json.RawMessage {
	if v, ok := config[name]; ok && string(v) != "null" {
		return v
	}
	if p := schema.Properties[name]; p != nil && len(p.Default) > 0 {
		return p.Default
	}
	return nil
}

// sameValue compares two JSON values regardless of spacing and key order.
func sameValue(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// checkRepoint refuses an update that changes destinations (changed) unless the caller may
// (a 403), and adds to p a problem for each secret the instance holds (stored) that the
// update's config (patch) does not enter again (a value other than the mask, or null to
// remove it). Nothing happens when nothing is re-pointed.
func checkRepoint(schema *configschema.Schema, changed []string, stored, patch map[string]json.RawMessage, mayRedirect bool, p *herald.Problems) error {
	if len(changed) == 0 {
		return nil
	}
	names := "config." + strings.Join(changed, ", config.")
	if !mayRedirect {
		return herald.Errorf(herald.EFORBIDDEN, "changing %s (where the instance connects) needs the owner or admin role", names)
	}
	for _, name := range schema.SecretFields() {
		if v, ok := stored[name]; !ok || string(v) == "null" || string(v) == `""` {
			continue // nothing stored to protect
		}
		if v, ok := patch[name]; ok {
			var s string
			if json.Unmarshal(v, &s) != nil || s != Mask {
				continue // entered again (or removed)
			}
		}
		p.Addf("config.%s must be entered again to change %s: a stored secret is never sent to a new destination", name, names)
	}
	return nil
}

// KeepDestinations returns incoming (a public configuration published from another app)
// with the destination keys of current (the target instance's stored public configuration)
// kept wherever the two differ, and the names of the keys kept, sorted. Publishing keeps
// the target's sealed secrets, which were entered for the target's own destinations, and
// cannot enter them again, so it may not move them. A configuration that cannot be read is
// returned as it came.
func (s *Service) KeepDestinations(provider string, current, incoming json.RawMessage) (json.RawMessage, []string) {
	kind, ok := s.catalogue.Lookup(provider)
	if !ok {
		return incoming, nil
	}
	schema, err := configschema.Parse(kind.ConfigSchema)
	if err != nil {
		return incoming, nil
	}
	before, after := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	if json.Unmarshal(current, &before) != nil || json.Unmarshal(incoming, &after) != nil {
		return incoming, nil
	}
	changed := changedDestinations(schema, before, after)
	if len(changed) == 0 {
		return incoming, nil
	}
	for _, name := range changed {
		if v, ok := before[name]; ok {
			after[name] = v
		} else {
			delete(after, name)
		}
	}
	out, err := json.Marshal(after)
	if err != nil {
		return incoming, nil
	}
	return out, changed
}
