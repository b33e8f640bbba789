package rundetail

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestContentIsCappedAndSaysSo(t *testing.T) {
	small := Content{To: "ada@example.com", Subject: "Hi", HTML: "<p>Hello</p>"}.Encode()
	var got Content
	if err := json.Unmarshal(small, &got); err != nil || got.Truncated || got.HTML != "<p>Hello</p>" {
		t.Fatalf("small content = %s (%v), want it whole", small, err)
	}
	// Each "<" encodes as \u003c: the encoding is longer than the text.
	big := Content{Subject: "Big", HTML: strings.Repeat("<b>é</b>", 100_000), Text: strings.Repeat("x", 300_000)}.Encode()
	if len(big) > MaxContentBytes {
		t.Fatalf("encoded %d bytes, want at most %d", len(big), MaxContentBytes)
	}
	got = Content{}
	if err := json.Unmarshal(big, &got); err != nil || !got.Truncated || got.Subject != "Big" {
		t.Fatalf("big content: truncated=%v subject=%q (%v), want truncated with the subject kept", got.Truncated, got.Subject, err)
	}
}

func TestInputIsCappedAndSaysSo(t *testing.T) {
	in := Input{Data: map[string]any{"order": "A-1"}, Recipient: Recipient{Identifier: "ada"}}.Encode()
	if !strings.Contains(string(in), `"order":"A-1"`) || strings.Contains(string(in), `"truncated":true`) {
		t.Fatalf("input = %s, want the data whole", in)
	}
	huge := Input{Data: map[string]any{"blob": strings.Repeat("x", MaxInputBytes)}, Recipient: Recipient{Identifier: "ada"}}.Encode()
	if len(huge) > MaxInputBytes || !strings.Contains(string(huge), `"truncated":true`) || !strings.Contains(string(huge), `"ada"`) {
		t.Fatalf("huge input = %.200s, want it left out with truncated and the recipient", huge)
	}
}
