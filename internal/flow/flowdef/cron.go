package flowdef

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// cronField is one of the five fields of a cron expression.
type cronField struct {
	name     string
	min, max int
	names    []string // names for min, min+1, … (months, weekdays)
	anyMark  bool     // accepts ? as *
}

var cronFields = []cronField{
	{name: "minute", min: 0, max: 59},
	{name: "hour", min: 0, max: 23},
	{name: "day-of-month", min: 1, max: 31, anyMark: true},
	{name: "month", min: 1, max: 12, names: []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
	// 7 is Sunday too, as in most cron dialects.
	{name: "day-of-week", min: 0, max: 7, names: []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}, anyMark: true},
}

// cronDescriptors are the shorthands Temporal Schedules accept.
var cronDescriptors = []string{"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}

// CheckCron validates a five-field cron expression (minute hour day-of-month month
// day-of-week; lists, ranges, steps, *, ? and month/weekday names) or a descriptor such as
// @daily, and returns every problem (none when it is valid).
func CheckCron(expr string) []string {
	expr = strings.TrimSpace(expr)
	if strings.HasPrefix(expr, "@") {
		for _, d := range cronDescriptors {
			if strings.EqualFold(expr, d) {
				return nil
			}
		}
		return []string{fmt.Sprintf("cron: unknown descriptor %q (use %s, or five fields)", expr, strings.Join(cronDescriptors, ", "))}
	}
	parts := strings.Fields(expr)
	if len(parts) != len(cronFields) {
		return []string{fmt.Sprintf("cron must have 5 fields (minute hour day-of-month month day-of-week), got %d", len(parts))}
	}
	var problems []string
	for i, f := range cronFields {
		for _, item := range strings.Split(parts[i], ",") {
			if msg := f.check(item); msg != "" {
				problems = append(problems, fmt.Sprintf("cron %s: %s", f.name, msg))
			}
		}
	}
	return problems
}

// check validates one list item: *, ?, a, a-b, each optionally /step.
func (f cronField) check(item string) string {
	if item == "" {
		return "empty list item"
	}
	base, step, hasStep := strings.Cut(item, "/")
	if hasStep {
		n, err := strconv.Atoi(step)
		if err != nil || n < 1 {
			return fmt.Sprintf("step %q must be a whole number of at least 1", step)
		}
	}
	if base == "*" || (base == "?" && f.anyMark) {
		return ""
	}
	lo, hi, isRange := strings.Cut(base, "-")
	a, msg := f.value(lo)
	if msg != "" {
		return msg
	}
	if !isRange {
		return ""
	}
	b, msg := f.value(hi)
	if msg != "" {
		return msg
	}
	if b < a {
		return fmt.Sprintf("range %s goes backwards", base)
	}
	return ""
}

// value reads a number or a name within the field's range.
func (f cronField) value(s string) (int, string) {
	for i, n := range f.names {
		if strings.EqualFold(s, n) {
			return f.min + i, ""
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		if len(f.names) > 0 {
			return 0, fmt.Sprintf("%q is not a number or a name (%s)", s, strings.Join(f.names, ", "))
		}
		return 0, fmt.Sprintf("%q is not a number", s)
	}
	if v < f.min || v > f.max {
		return 0, fmt.Sprintf("%d is out of range %d-%d", v, f.min, f.max)
	}
	return v, ""
}

// CheckTimezone validates an IANA time zone name ("" is UTC).
func CheckTimezone(name string) string {
	if name == "" || name == "UTC" {
		return ""
	}
	if strings.EqualFold(name, "local") {
		return `timezone "Local" is not allowed: name a zone such as Europe/Berlin`
	}
	if _, err := time.LoadLocation(name); err != nil {
		return fmt.Sprintf("timezone: unknown time zone %q (use an IANA name such as Europe/Berlin)", name)
	}
	return ""
}
