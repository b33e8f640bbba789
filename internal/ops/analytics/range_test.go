package analytics

import (
	"slices"
	"testing"
	"time"

	herald "github.com/heraldhq/herald"
)

func TestParseRange(t *testing.T) {
	now := time.Date(2026, 3, 15, 13, 30, 0, 0, time.UTC)
	const badFrom = "fromDate must be a date (YYYY-MM-DD) or a date-time (RFC 3339)"
	for _, tc := range []struct {
		from, to          string
		wantFrom, wantTo  string
		firstDay, lastDay string
		days              int
		problems          []string
	}{
		{"", "", "2026-02-14T00:00:00Z", "2026-03-15T23:59:59.999999Z", "2026-02-14", "2026-03-15", 30, nil},
		{"2026-03-01", "2026-03-02", "2026-03-01T00:00:00Z", "2026-03-02T23:59:59.999999Z", "2026-03-01", "2026-03-02", 2, nil},
		{"2026-03-01T10:00:00+02:00", "2026-03-01T10:00:00Z", "2026-03-01T08:00:00Z", "2026-03-01T10:00:00Z", "2026-03-01", "2026-03-01", 1, nil},
		{"2026-03-10", "", "2026-03-10T00:00:00Z", "2026-03-15T23:59:59.999999Z", "2026-03-10", "2026-03-15", 6, nil},
		// A fromDate after today ends the range with that day.
		{"2026-04-01", "", "2026-04-01T00:00:00Z", "2026-04-01T23:59:59.999999Z", "2026-04-01", "2026-04-01", 1, nil},
		{"", "2026-01-31", "2026-01-02T00:00:00Z", "2026-01-31T23:59:59.999999Z", "2026-01-02", "2026-01-31", 30, nil},
		{"2024-01-01", "2024-12-31", "2024-01-01T00:00:00Z", "2024-12-31T23:59:59.999999Z", "2024-01-01", "2024-12-31", 366, nil},
		{"2024-01-01", "2025-01-01", "", "", "", "", 0, []string{"the range from fromDate to toDate must not exceed 366 days"}},
		{"2026-03-02", "2026-03-01", "", "", "", "", 0, []string{"toDate must not be before fromDate"}},
		{"2026-03-01T10:00:00Z", "2026-03-01T09:59:59Z", "", "", "", "", 0, []string{"toDate must not be before fromDate"}},
		{"03/01/2026", "2026-02-30", "", "", "", "", 0, []string{badFrom, "toDate must be a date (YYYY-MM-DD) or a date-time (RFC 3339)"}},
		{"2026-03-01T10:00", "", "", "", "", "", 0, []string{badFrom}},
	} {
		var p herald.Problems
		r := ParseRange(tc.from, tc.to, now, &p)
		if !slices.Equal([]string(p), tc.problems) {
			t.Errorf("%q..%q: problems %q, want %q", tc.from, tc.to, p, tc.problems)
			continue
		}
		if tc.problems != nil {
			continue
		}
		got := []string{r.From.Format(time.RFC3339Nano), r.To.Format(time.RFC3339Nano), r.FirstDay().Format(dateLayout), r.LastDay().Format(dateLayout)}
		want := []string{tc.wantFrom, tc.wantTo, tc.firstDay, tc.lastDay}
		if !slices.Equal(got, want) || r.Days() != tc.days {
			t.Errorf("%q..%q: %v (%d days), want %v (%d days)", tc.from, tc.to, got, r.Days(), want, tc.days)
		}
	}
}

func TestCursorRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 0, 0, 123456000, time.UTC)
	gotAt, id, ok := decodeCursor(encodeCursor(at, 42))
	if !ok || !gotAt.Equal(at) || id != 42 {
		t.Errorf("round trip: %v %d %v", gotAt, id, ok)
	}
	for _, bad := range []string{"", "%%", "MTIz", encodeCursor(at, 0), "MTIzLng"} {
		if _, _, ok := decodeCursor(bad); ok {
			t.Errorf("%q decoded", bad)
		}
	}
}
