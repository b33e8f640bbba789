// Package jsontime is the one timestamp format of the developer API: ISO 8601 in UTC with
// milliseconds ("2025-01-31T09:30:00.000Z").
package jsontime

import "time"

// Layout is the wire format of Time.
const Layout = "2006-01-02T15:04:05.000Z"

// Time marshals as ISO 8601 in UTC with milliseconds.
type Time time.Time

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(Layout)+2)
	b = append(b, '"')
	b = time.Time(t).UTC().AppendFormat(b, Layout)
	return append(b, '"'), nil
}

// Ptr converts an optional database time; nil stays nil (marshalled as null).
func Ptr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}
