// Package quiethours holds the rule of a user's quiet hours: a daily window that may cross
// midnight plus whole quiet days, in the user's time zone, and when a message that falls
// inside them may go out. It does no I/O: the preferences service stores the hours, and
// delivery (activities) holds messages with it.
package quiethours

import (
	"fmt"
	"strings"
	"time"
)

// QuietHours is a user's quiet time: a daily window from Start to End (seconds after local
// midnight; Start > End crosses midnight, "22:00–07:00"), plus whole days (Days, a bit per
// time.Weekday: 1<<time.Sunday …) that are quiet from midnight to midnight. Times are in the
// user's time zone (profile key timezone; UTC when unset or unknown).
type QuietHours struct {
	Start, End int
	Days       uint8
}

// Windowed reports whether the daily window is set (Start == End means no daily window).
func (q QuietHours) Windowed() bool { return q.Start != q.End }

// quietAt reports whether t (in its own location) is quiet, and when that stretch of quiet
// ends at the earliest (the end of the window or of the day).
func (q QuietHours) quietAt(t time.Time) (bool, time.Time) {
	y, m, d := t.Date()
	if q.Days&(1<<uint(t.Weekday())) != 0 {
		return true, time.Date(y, m, d+1, 0, 0, 0, 0, t.Location())
	}
	if !q.Windowed() {
		return false, t
	}
	sec := t.Hour()*3600 + t.Minute()*60 + t.Second()
	at := func(day, s int) time.Time {
		return time.Date(y, m, d+day, s/3600, s/60%60, s%60, 0, t.Location())
	}
	if q.Start < q.End {
		if sec >= q.Start && sec < q.End {
			return true, at(0, q.End)
		}
		return false, t
	}
	// Crossing midnight: quiet from Start to midnight and from midnight to End.
	switch {
	case sec >= q.Start:
		return true, at(1, q.End)
	case sec < q.End:
		return true, at(0, q.End)
	}
	return false, t
}

// ReleaseAt returns when a message due at now may go out: now itself (held false) when now
// is outside the quiet hours, else the first moment after them (held true). The window and
// the quiet days chain ("22:00–07:00, weekends" holds Friday 23:00 until Monday 07:00).
// Quiet hours that never end (every day quiet) are refused when they are set.
func (q QuietHours) ReleaseAt(now time.Time, loc *time.Location) (time.Time, bool) {
	if loc == nil {
		loc = time.UTC
	}
	t := now.In(loc)
	held := false
	for i := 0; i < 16; i++ {
		quiet, until := q.quietAt(t)
		if !quiet {
			break
		}
		held, t = true, until
	}
	return t, held
}

// Location returns the time zone named by a user's profile timezone, UTC when it is empty
// or unknown.
func Location(name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}

// HeldReason is the message log reason of a held message: "held: quiet hours until 07:00
// Europe/Paris" (seconds shown when not zero; the weekday when it is not within a day).
func HeldReason(now, until time.Time, loc *time.Location) string {
	u := until.In(loc)
	layout := "15:04"
	if u.Second() != 0 {
		layout = "15:04:05"
	}
	if u.Sub(now) >= 24*time.Hour {
		layout = "Mon " + layout
	}
	return "held: quiet hours until " + u.Format(layout) + " " + loc.String()
}

// DayNames are the names of QuietHours days, by time.Weekday.
var DayNames = [7]string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// FormatSeconds writes seconds after midnight as HH:MM, or HH:MM:SS when seconds are set.
func FormatSeconds(s int) string {
	if s%60 != 0 {
		return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/3600, s/60%60)
}

// ParseSeconds reads HH:MM or HH:MM:SS (24-hour clock) as seconds after midnight.
func ParseSeconds(v string) (int, bool) {
	parts := strings.Split(v, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	limits := []int{24, 60, 60}
	total := 0
	for i, p := range parts {
		if len(p) != 2 || p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9' {
			return 0, false
		}
		n := int(p[0]-'0')*10 + int(p[1]-'0')
		if n >= limits[i] {
			return 0, false
		}
		total = total*60 + n
	}
	if len(parts) == 2 {
		total *= 60
	}
	return total, true
}
