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

// parseClock reads HH:MM or HH:MM:SS (24-hour clock) as seconds after midnight.
func parseClock(s string) (int, error) {
	for _, layout := range []string{"15:04:05", "15:04"} {
		if len(s) == len(layout) {
			if t, err := time.Parse(layout, s); err == nil {
				return t.Hour()*3600 + t.Minute()*60 + t.Second(), nil
			}
		}
	}
	return 0, fmt.Errorf("%q is not a time of day (use HH:MM or HH:MM:SS, e.g. 09:00)", s)
}

// Compile reads the window's bounds and days, with every problem (worded for the field,
// "start and end go together", "sendWindow.days: …"): the validation of a step's window
// and the delivery's reading of it are one path.
func (w SendWindow) Compile() (Window, []string) {
	var out Window
	var probs []string
	add := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	if (w.Start == "") != (w.End == "") {
		add("sendWindow: start and end go together")
	}
	var bounds [2]int
	for j, v := range []string{w.Start, w.End} {
		if v == "" {
			continue
		}
		sec, err := parseClock(v)
		if err != nil {
			add("sendWindow.%s: %v", []string{"start", "end"}[j], err)
		}
		bounds[j] = sec
	}
	if w.Start != "" && w.Start == w.End || w.Start != "" && w.End != "" && bounds[0] == bounds[1] {
		add("sendWindow: start and end must differ")
	}
	for _, d := range w.Days {
		if i := slices.Index(WeekdayNames, d); i >= 0 {
			out.Days |= 1 << i
		} else {
			add("sendWindow.days: %q is not a day (sunday … saturday)", d)
		}
	}
	if w.Start == "" && len(w.Days) == 0 {
		add("sendWindow needs days, a start and end, or both")
	}
	if w.Start != "" && w.End != "" {
		out.Start, out.End = bounds[0], bounds[1]
	}
	return out, probs
}

// compileSendWindow records the problems of a step's send window and returns it compiled
// (nil: the step has none).
func compileSendWindow(i int, s Step, add func(format string, args ...any)) *Window {
	w := s.SendWindow
	if w == nil {
		return nil
	}
	if s.Type == "inApp" {
		add("steps[%d].sendWindow: in-app steps are written at once; only external channel steps take a send window", i)
	}
	cw, probs := w.Compile()
	for _, msg := range probs {
		add("steps[%d].%s", i, msg)
	}
	return &cw
}
