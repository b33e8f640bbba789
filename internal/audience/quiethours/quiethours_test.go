package quiethours

import (
	"testing"
	"time"
)

func TestQuietHoursReleaseAt(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no tz data:", err)
	}
	night := QuietHours{Start: 22 * 3600, End: 7 * 3600}
	weekendNights := QuietHours{Start: 22 * 3600, End: 7 * 3600, Days: 1<<time.Saturday | 1<<time.Sunday}
	day := QuietHours{Start: 9 * 3600, End: 17 * 3600}
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04:05", s, paris)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name    string
		q       QuietHours
		now     string
		held    bool
		release string
	}{
		{"before the window", night, "2026-11-25 21:59:59", false, "2026-11-25 21:59:59"},
		{"window start", night, "2026-11-25 22:00:00", true, "2026-11-26 07:00:00"},
		{"after midnight", night, "2026-11-26 03:00:00", true, "2026-11-26 07:00:00"},
		{"window end is open", night, "2026-11-26 07:00:00", false, "2026-11-26 07:00:00"},
		{"same-day window", day, "2026-11-26 12:00:00", true, "2026-11-26 17:00:00"},
		{"outside same-day window", day, "2026-11-26 08:00:00", false, "2026-11-26 08:00:00"},
		// Friday night runs into the weekend, then Sunday night's window until Monday 07:00.
		{"friday night into the weekend", weekendNights, "2026-11-27 23:00:00", true, "2026-11-30 07:00:00"},
		{"saturday noon", weekendNights, "2026-11-28 12:00:00", true, "2026-11-30 07:00:00"},
		{"weekday afternoon", weekendNights, "2026-11-26 15:00:00", false, "2026-11-26 15:00:00"},
		{"days only", QuietHours{Days: 1 << time.Thursday}, "2026-11-26 15:00:00", true, "2026-11-27 00:00:00"},
		// The last Sunday of March skips 02:00–03:00 in Paris.
		{"across a DST change", night, "2026-03-29 01:00:00", true, "2026-03-29 07:00:00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, held := c.q.ReleaseAt(at(c.now), paris)
			if held != c.held || !got.Equal(at(c.release)) {
				t.Fatalf("ReleaseAt(%s) = %s, %v; want %s, %v", c.now, got, held, c.release, c.held)
			}
		})
	}
	now := at("2026-11-26 03:00:00")
	until, _ := night.ReleaseAt(now, paris)
	if r := HeldReason(now, until, paris); r != "held: quiet hours until 07:00 Europe/Paris" {
		t.Fatalf("reason %q", r)
	}
	now = at("2026-11-28 12:00:00")
	until, _ = weekendNights.ReleaseAt(now, paris)
	if r := HeldReason(now, until, paris); r != "held: quiet hours until Mon 07:00 Europe/Paris" {
		t.Fatalf("reason %q", r)
	}
}

func TestParseSeconds(t *testing.T) {
	for in, want := range map[string]int{"00:00": 0, "07:00": 25200, "23:59:59": 86399, "22:30": 81000} {
		if got, ok := ParseSeconds(in); !ok || got != want {
			t.Errorf("ParseSeconds(%q) = %d, %v", in, got, ok)
		}
		if FormatSeconds(want) != in {
			t.Errorf("FormatSeconds(%d) = %q", want, FormatSeconds(want))
		}
	}
	for _, bad := range []string{"24:00", "7:00", "07:60", "07", "07:00:00:00", "aa:bb", ""} {
		if _, ok := ParseSeconds(bad); ok {
			t.Errorf("ParseSeconds(%q) accepted", bad)
		}
	}
}
