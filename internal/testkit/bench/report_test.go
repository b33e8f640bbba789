package bench

import "testing"

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
