package flowdef

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxDuration bounds delays, windows and timeouts. Durations, times of day and clocks are
// read only by Compile (their parsers are unexported): a run reads the typed Program.
const MaxDuration = 366 * 24 * time.Hour

// parseDuration reads a duration such as 90s, 15m, 2h, 3d or 1d12h (Go durations plus a d
// suffix for days). It must be positive and at most MaxDuration.
func parseDuration(s string) (time.Duration, error) {
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

// Clock is a time of day (24-hour clock): a compiled step's timeOfDay.
type Clock struct{ Hour, Minute, Second int }

// parseTimeOfDay reads "HH:MM" or "HH:MM:SS" (24-hour clock; seconds let a test, or a
// precise schedule, name any second).
func parseTimeOfDay(s string) (Clock, error) {
	v := strings.TrimSpace(s)
	layout := "15:04"
	if strings.Count(v, ":") == 2 {
		layout = "15:04:05"
	}
	t, err := time.Parse(layout, v)
	if err != nil {
		return Clock{}, fmt.Errorf("%q is not a time of day (use HH:MM or HH:MM:SS, e.g. 09:00)", s)
	}
	return Clock{t.Hour(), t.Minute(), t.Second()}, nil
}

// NextTimeOfDay returns the first moment at the clock time in loc strictly after now.
func NextTimeOfDay(now time.Time, c Clock, loc *time.Location) time.Time {
	local := now.In(loc)
	next := time.Date(local.Year(), local.Month(), local.Day(), c.Hour, c.Minute, c.Second, 0, loc)
	if !next.After(local) {
		next = time.Date(local.Year(), local.Month(), local.Day()+1, c.Hour, c.Minute, c.Second, 0, loc)
	}
	return next
}

// Location is the time zone a time-of-day step is read in: the recipient's profile key
// timezone (an unknown name is skipped), else the step's compiled Zone.
func (s *CompiledStep) Location(profile map[string]any) *time.Location {
	if name, _ := profile["timezone"].(string); name != "" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	if s.Zone == nil {
		return time.UTC
	}
	return s.Zone
}
