package flowdef

import (
	"fmt"
	"slices"
	"time"
)

// SendWindow limits when a channel step may deliver, in the recipient's time zone (their
// profile key timezone, else UTC): on Days (all days when empty) between Start and End
// ("09:00", "17:00"; HH:MM or HH:MM:SS; Start later than End crosses midnight; both empty:
// the whole day). A step due outside it is held until it opens, as quiet hours hold
// messages (docs/workflows.md).
type SendWindow struct {
	Days  []string `json:"days,omitempty"`
	Start string   `json:"start,omitempty"`
	End   string   `json:"end,omitempty"`
}

// WeekdayNames are the day names of send windows, by time.Weekday.
var WeekdayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// ParseClock reads HH:MM or HH:MM:SS (24-hour clock) as seconds after midnight.
func ParseClock(s string) (int, error) {
	for _, layout := range []string{"15:04:05", "15:04"} {
		if len(s) == len(layout) {
			if t, err := time.Parse(layout, s); err == nil {
				return t.Hour()*3600 + t.Minute()*60 + t.Second(), nil
			}
		}
	}
	return 0, fmt.Errorf("%q is not a time of day (use HH:MM or HH:MM:SS, e.g. 09:00)", s)
}

// Seconds returns the window's bounds in seconds after midnight and its days as bits by
// time.Weekday (0: every day); call it on a checked window.
func (w SendWindow) Seconds() (start, end int, days uint8) {
	start, _ = ParseClock(w.Start)
	end, _ = ParseClock(w.End)
	if w.Start == "" {
		start, end = 0, 0
	}
	for _, d := range w.Days {
		if i := slices.Index(WeekdayNames, d); i >= 0 {
			days |= 1 << i
		}
	}
	return start, end, days
}

// checkSendWindow records the problems of a step's send window.
func checkSendWindow(i int, s Step, add func(format string, args ...any)) {
	w := s.SendWindow
	if w == nil {
		return
	}
	if s.Type == "inApp" {
		add("steps[%d].sendWindow: in-app steps are written at once; only external channel steps take a send window", i)
	}
	if (w.Start == "") != (w.End == "") {
		add("steps[%d].sendWindow: start and end go together", i)
	}
	var bounds [2]int
	for j, v := range []string{w.Start, w.End} {
		if v == "" {
			continue
		}
		sec, err := ParseClock(v)
		if err != nil {
			add("steps[%d].sendWindow.%s: %v", i, []string{"start", "end"}[j], err)
		}
		bounds[j] = sec
	}
	if w.Start != "" && w.Start == w.End || w.Start != "" && w.End != "" && bounds[0] == bounds[1] {
		add("steps[%d].sendWindow: start and end must differ", i)
	}
	for _, d := range w.Days {
		if !slices.Contains(WeekdayNames, d) {
			add("steps[%d].sendWindow.days: %q is not a day (sunday … saturday)", i, d)
		}
	}
	if w.Start == "" && len(w.Days) == 0 {
		add("steps[%d].sendWindow needs days, a start and end, or both", i)
	}
}
