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
	return AppendQuoted(make([]byte, 0, len(Layout)+2), time.Time(t)), nil
}

// AppendQuoted appends t in Layout, in double quotes, as MarshalJSON writes it; years of
// four digits take a path without the general formatter.
func AppendQuoted(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		b = append(b, '"')
		b = t.AppendFormat(b, Layout)
		return append(b, '"')
	}
	hour, minute, second := t.Clock()
	ms := t.Nanosecond() / 1e6
	return append(b, '"',
		byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10), '-',
		byte('0'+int(month)/10), byte('0'+int(month)%10), '-', byte('0'+day/10), byte('0'+day%10), 'T',
		byte('0'+hour/10), byte('0'+hour%10), ':', byte('0'+minute/10), byte('0'+minute%10), ':',
		byte('0'+second/10), byte('0'+second%10), '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10), 'Z', '"')
}

// Ptr converts an optional database time; nil stays nil (marshalled as null).
func Ptr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}
