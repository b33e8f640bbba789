package commits

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestDiffComparesItemsByKeyAndCanonicalValue(t *testing.T) {
	base := Snapshot{
		Categories:   []Category{{Identifier: "news", Name: "News"}, {Identifier: "old", Name: "Old"}},
		Translations: []Translation{{Locale: "en", Entries: json.RawMessage(`{"a": "1", "b": "2"}`)}},
		Templates:    []Template{{Identifier: "t", Contents: []Content{{Channel: "sms", Content: json.RawMessage(`{"body":"x"}`)}}}},
	}
	cur := Snapshot{
		Categories: []Category{{Identifier: "news", Name: "News!"}},
		// The same entries in another key order and spacing are no change.
		Translations:      []Translation{{Locale: "en", Entries: json.RawMessage(`{"b":"2","a":"1"}`)}},
		Templates:         []Template{{Identifier: "t", Contents: []Content{{Channel: "sms", Content: json.RawMessage(`{"body": "x"}`)}}}},
		ProviderInstances: []Instance{{Channel: "email", Name: "smtp", Provider: "smtp", Config: json.RawMessage(`{}`)}},
		Layouts:           []Layout{{Identifier: "a"}},
	}
	got := fmt.Sprint(Diff(base, cur))
	want := "[{category news updated} {category old deleted} {layout a created} {providerInstance email/smtp created}]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if d := Diff(cur, cur); len(d) != 0 {
		t.Errorf("a snapshot differs from itself: %v", d)
	}
	// A snapshot survives its JSON round trip (as stored in a commit) unchanged.
	raw, _ := json.Marshal(cur)
	var back Snapshot
	if err := json.Unmarshal(raw, &back); err != nil || len(Diff(cur, back)) != 0 {
		t.Errorf("round trip: %v %v", err, Diff(cur, back))
	}
}

func TestPageOf(t *testing.T) {
	all := []int{1, 2, 3, 4, 5}
	if got := fmt.Sprint(pageOf(all, 2, 2), pageOf(all, 3, 2), pageOf(all, 4, 2)); got != "[3 4] [5] []" {
		t.Errorf("%s", got)
	}
}
