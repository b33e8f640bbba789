package rundetail

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
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

// TestIndexFindsStepMessages files logged messages by recipient, channel and step: a step's
// message comes back with its content and its times in UTC, a row no step wrote and a step
// with no row give nothing.
func TestIndexFindsStepMessages(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	m := Index([]Logged{
		{UserIdentifier: "alice", StepKey: "s1", Message: Message{ID: 7, Channel: "email", Status: "sent", SentAt: &at}},
		{UserIdentifier: "alice", Message: Message{ID: 8, Channel: "email", Status: "sent"}},
		{UserIdentifier: "bob", StepKey: "s1", Message: Message{ID: 9, Channel: "email", Status: "queued"}},
	}, map[int64]json.RawMessage{7: json.RawMessage(`{"subject":"Hi"}`), 9: {}})
	got := m.For("alice", "email", "s1")
	if got == nil || got.ID != 7 || string(got.Content) != `{"subject":"Hi"}` || got.SentAt.Location() != time.UTC || !got.SentAt.Equal(at) {
		t.Fatalf("alice's step: %+v", got)
	}
	if got := m.For("bob", "email", "s1"); got == nil || got.ID != 9 || got.Content != nil {
		t.Errorf("bob's step (empty content is none): %+v", got)
	}
	if got := m.For("alice", "email", ""); got != nil {
		t.Errorf("a row no step wrote was indexed: %+v", got)
	}
	if got := m.For("alice", "sms", "s1"); got != nil {
		t.Errorf("another channel: %+v", got)
	}
}
