package flowdef

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxDuration bounds delays, windows and timeouts.
const MaxDuration = 366 * 24 * time.Hour

// ParseDuration reads a duration such as 90s, 15m, 2h, 3d or 1d12h (Go durations plus a d
// suffix for days). It must be positive and at most MaxDuration.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	var total time.Duration
	rest := s
	if i := strings.Index(rest, "d"); i > 0 {
		days, err := strconv.Atoi(rest[:i])
		if err != nil || days < 0 {
			return 0, fmt.Errorf("%q is not a duration (use 90s, 15m, 2h, 3d)", s)
		}
		total = time.Duration(days) * 24 * time.Hour
		rest = rest[i+1:]
	}
	if rest != "" {
		d, err := time.ParseDuration(rest)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration (use 90s, 15m, 2h, 3d)", s)
		}
		total += d
	}
	if total <= 0 {
		return 0, fmt.Errorf("%q must be positive", s)
	}
	if total > MaxDuration {
		return 0, fmt.Errorf("%q is longer than %d days", s, int(MaxDuration.Hours()/24))
	}
	return total, nil
}

// ParseTimeOfDay reads "HH:MM" (24-hour clock).
func ParseTimeOfDay(s string) (hour, minute int, err error) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil {
		return 0, 0, fmt.Errorf("%q is not a time of day (use HH:MM, e.g. 09:00)", s)
	}
	return t.Hour(), t.Minute(), nil
}

// NextTimeOfDay returns the first moment at hour:minute in loc strictly after now.
func NextTimeOfDay(now time.Time, hour, minute int, loc *time.Location) time.Time {
	local := now.In(loc)
	next := time.Date(local.Year(), local.Month(), local.Day(), hour, minute, 0, 0, loc)
	if !next.After(local) {
		next = time.Date(local.Year(), local.Month(), local.Day()+1, hour, minute, 0, 0, loc)
	}
	return next
}
