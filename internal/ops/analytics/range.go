package analytics

import (
	"time"

	herald "github.com/heraldhq/herald"
)

// Limits of a date range.
const (
	// MaxRangeDays caps fromDate..toDate (a year, leap years included).
	MaxRangeDays = 366
	// DefaultRangeDays is the range when fromDate is not given: the 30 days up to toDate.
	DefaultRangeDays = 30
)

const dateLayout = "2006-01-02"

// Range is the span fromDate..toDate, both ends included, in UTC. A date (YYYY-MM-DD)
// stands for its whole day: as fromDate its first instant, as toDate its last.
type Range struct {
	From, To time.Time
}

// FirstDay is the UTC day of From (midnight).
func (r Range) FirstDay() time.Time { return day(r.From) }

// LastDay is the UTC day of To (midnight).
func (r Range) LastDay() time.Time { return day(r.To) }

// Days is the number of UTC days the range touches.
func (r Range) Days() int { return int(r.LastDay().Sub(r.FirstDay()).Hours()/24) + 1 }

// ParseRange reads fromDate and toDate (each a date YYYY-MM-DD or an RFC 3339 date-time),
// recording the violated rules in p. Without toDate the range ends with today (UTC);
// without fromDate it starts DefaultRangeDays-1 days before toDate's day.
func ParseRange(fromRaw, toRaw string, now time.Time, p *herald.Problems) Range {
	from, fromOK := parseBound("fromDate", fromRaw, false, p)
	to, toOK := parseBound("toDate", toRaw, true, p)
	if !fromOK || !toOK {
		return Range{}
	}
	if toRaw == "" {
		to = endOfDay(now)
		if fromRaw != "" && from.After(to) {
			to = endOfDay(from)
		}
	}
	if fromRaw == "" {
		from = day(to).AddDate(0, 0, 1-DefaultRangeDays)
	}
	r := Range{From: from, To: to}
	switch {
	case to.Before(from):
		p.Addf("toDate must not be before fromDate")
	case r.Days() > MaxRangeDays:
		p.Addf("the range from fromDate to toDate must not exceed %d days", MaxRangeDays)
	}
	return r
}

// parseBound reads one end; a date as the end of a range is its last instant.
func parseBound(name, raw string, end bool, p *herald.Problems) (time.Time, bool) {
	if raw == "" {
		return time.Time{}, true
	}
	if t, err := time.Parse(dateLayout, raw); err == nil {
		if end {
			return endOfDay(t), true
		}
		return t, true
	}
	if t, err := time.Parse(time.RFC3339Nano, raw); err == nil {
		// Postgres keeps microseconds.
		return t.UTC().Truncate(time.Microsecond), true
	}
	p.Addf("%s must be a date (YYYY-MM-DD) or a date-time (RFC 3339)", name)
	return time.Time{}, false
}

func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func endOfDay(t time.Time) time.Time { return day(t).AddDate(0, 0, 1).Add(-time.Microsecond) }
