package bench

import (
	"strings"
	"testing"
	"time"
)

func TestSpliceKeepsTheRestOfTheDocument(t *testing.T) {
	doc := "# Benchmarks\n\nintro\n\n" + startMarker + "\nold figures\n" + endMarker + "\n\n## Realtime\n\nkept\n"
	got := Splice(doc, "new figures\n")
	want := "# Benchmarks\n\nintro\n\n" + startMarker + "\nnew figures\n" + endMarker + "\n\n## Realtime\n\nkept\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if got := Splice("# Benchmarks\n", "figures\n"); got != "# Benchmarks\n\n"+startMarker+"\nfigures\n"+endMarker+"\n" {
		t.Errorf("without markers: %q", got)
	}
}

func TestExternalSectionJudgesAgainstItsReference(t *testing.T) {
	r := &ExternalResult{Channel: "email", Sends: 10000, Concurrency: 16, Last: 5 * time.Second, Received: 10000,
		RefFresh: 8000, RefReuse: 30000, Members: 10000, BroadcastTook: 2 * time.Second}
	var b strings.Builder
	r.write(&b, 5)
	out := b.String()
	// 2,000/s is ≥ 1,000 but 0.25 of 8,000/s; 5,000/s is both.
	if !strings.Contains(out, "| 2000 | ≥ 1,000 and ≥ 0.25 × reference (per connection) — met |") ||
		!strings.Contains(out, "(5000 /s, 0.62 × reference) | ≥ 1,000 and ≥ 0.25 × reference (per connection) — met |") {
		t.Errorf("section:\n%s", out)
	}
	r.Last = 20 * time.Second
	b.Reset()
	r.write(&b, 5)
	if !strings.Contains(b.String(), "| 500 | ≥ 1,000 and ≥ 0.25 × reference (per connection) — **missed** |") {
		t.Errorf("section:\n%s", b.String())
	}
}
