package commits

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Item types of a snapshot, in the order changes are listed.
const (
	TypeCategory         = "category"
	TypeLayout           = "layout"
	TypeTranslation      = "translation"
	TypeTemplate         = "template"
	TypeWorkflow         = "workflow"
	TypeProviderInstance = "providerInstance"
	TypeRoute            = "route"
)

var typeOrder = []string{TypeCategory, TypeLayout, TypeTranslation, TypeTemplate, TypeWorkflow, TypeProviderInstance, TypeRoute}

// Change actions.
const (
	Created = "created"
	Updated = "updated"
	Deleted = "deleted"
)

// Change is one item that differs between two snapshots. Key is the item's identifier
// (a locale for translations, channel/name for provider instances and routes).
type Change struct {
	Type   string `json:"type"`
	Key    string `json:"key"`
	Action string `json:"action"`
}

// item is one keyed element of a snapshot in canonical JSON.
type item struct {
	typ, key string
	value    []byte
}

// items flattens a snapshot.
func (s Snapshot) items() []item {
	var out []item
	add := func(typ, key string, v any) { out = append(out, item{typ, key, canonical(v)}) }
	for _, c := range s.Categories {
		add(TypeCategory, c.Identifier, c)
	}
	for _, l := range s.Layouts {
		add(TypeLayout, l.Identifier, l)
	}
	for _, t := range s.Translations {
		add(TypeTranslation, t.Locale, t)
	}
	for _, t := range s.Templates {
		add(TypeTemplate, t.Identifier, t)
	}
	for _, w := range s.Workflows {
		add(TypeWorkflow, w.Identifier, w)
	}
	for _, i := range s.ProviderInstances {
		add(TypeProviderInstance, i.Channel+"/"+i.Name, i)
	}
	for _, r := range s.Routes {
		add(TypeRoute, r.Channel+"/"+r.Name, r)
	}
	return out
}

// canonical encodes v with object keys sorted at every level, so that equal values compare
// equal however their JSON was stored.
func canonical(v any) []byte {
	raw, _ := json.Marshal(v)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if dec.Decode(&generic) != nil {
		return raw
	}
	out, _ := json.Marshal(generic)
	return out
}

// Diff lists what changed from base to cur, by type then key.
func Diff(base, cur Snapshot) []Change {
	before := map[string][]byte{}
	for _, it := range base.items() {
		before[it.typ+"\x00"+it.key] = it.value
	}
	out := []Change{}
	seen := map[string]bool{}
	for _, it := range cur.items() {
		k := it.typ + "\x00" + it.key
		seen[k] = true
		old, ok := before[k]
		switch {
		case !ok:
			out = append(out, Change{it.typ, it.key, Created})
		case !bytes.Equal(old, it.value):
			out = append(out, Change{it.typ, it.key, Updated})
		}
	}
	for _, it := range base.items() {
		if !seen[it.typ+"\x00"+it.key] {
			out = append(out, Change{it.typ, it.key, Deleted})
		}
	}
	slices.SortFunc(out, func(a, b Change) int {
		if c := slices.Index(typeOrder, a.Type) - slices.Index(typeOrder, b.Type); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	return out
}

func sortBy[T any](s []T, key func(T) string) {
	slices.SortStableFunc(s, func(a, b T) int { return strings.Compare(key(a), key(b)) })
}
