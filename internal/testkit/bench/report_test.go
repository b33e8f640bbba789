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
	r := &ExternalResult{Channel: "email", Sends: 10000, Concurrency: 16, Last: 2 * time.Second, Received: 10000,
		RefFresh: 8000, RefReuse: 30000, Members: 10000, BroadcastTook: 2 * time.Second}
	var b strings.Builder
	r.write(&b, 5)
	out := b.String()
	// 5,000/s is ≥ 500 and 0.62 of 8,000/s: met, for the sends and the broadcast.
	if !strings.Contains(out, "| 5000 | ≥ 500 and ≥ 0.5 × reference (per connection) — met |") ||
		!strings.Contains(out, "(5000 /s, 0.62 × reference) | ≥ 500 and ≥ 0.5 × reference (per connection) — met |") {
		t.Errorf("section:\n%s", out)
	}
	// 2,000/s is ≥ 500 but only 0.25 of the reference.
	r.Last = 5 * time.Second
	b.Reset()
	r.write(&b, 5)
	if !strings.Contains(b.String(), "| 2000 | ≥ 500 and ≥ 0.5 × reference (per connection) — **missed** |") {
		t.Errorf("section:\n%s", b.String())
	}
	// The latency row appears when latencies were measured.
	if strings.Contains(b.String(), "end of DATA") {
		t.Errorf("a latency row without latencies:\n%s", b.String())
	}
	r.Latency = Stats{Ops: 10000, P50: 12 * time.Millisecond, P99: 40 * time.Millisecond}
	b.Reset()
	r.write(&b, 5)
	if !strings.Contains(b.String(), "| accept → end of DATA at the server, p50 / p99 (under this load) | 12.0 ms / 40.0 ms |") {
		t.Errorf("section:\n%s", b.String())
	}
}

func TestInboxSectionReportsRatiosToItsReference(t *testing.T) {
	in := &InboxResult{Rows: 100, Users: 10, HeavyRows: 50,
		Page1:    Stats{Ops: 1000, Duration: time.Second, P50: time.Millisecond, P99: 4 * time.Millisecond},
		Page500:  Stats{Ops: 500, Duration: time.Second, P50: 2 * time.Millisecond, P99: 12 * time.Millisecond},
		Unread:   Stats{Ops: 1000, Duration: time.Second, P99: 4 * time.Millisecond},
		Ordinary: Stats{Ops: 1000, Duration: time.Second, P99: 4 * time.Millisecond}}
	in.Ref.Page1 = Stats{Ops: 1500, Duration: time.Second, P99: 3 * time.Millisecond}
	in.Ref.Page500 = Stats{Ops: 2000, Duration: time.Second, P99: 3 * time.Millisecond}
	in.Ref.Unread = Stats{Ops: 1000, Duration: time.Second, P99: 4 * time.Millisecond}
	in.Ref.Ordinary = Stats{Ops: 1000, Duration: time.Second, P99: 4 * time.Millisecond}
	var b strings.Builder
	in.write(&b)
	out := b.String()
	for _, want := range []string{
		"| heavy user, page 1 | 1000 | 1.0 ms / 4.0 ms | 1500 | 0.0 ms / 3.0 ms | 0.67× met | 1.3× met |",
		"| heavy user, page 500 | 500 | 2.0 ms / 12.0 ms | 2000 | 0.0 ms / 3.0 ms | 0.25× **missed** | 4.0× **missed** |",
		"p99 3.0× — **missed**; the reference's own: 1.0×",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
