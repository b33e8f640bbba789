package analytics

import (
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// Events counted (see migration 00074 for what each means).
const (
	EventSent      = "sent"
	EventDelivered = "delivered"
	EventFailed    = "failed"
	EventSkipped   = "skipped"
	EventSeen      = "seen"
	EventRead      = "read"
	EventClicked   = "clicked"
)

// Counts are the messages that reached each event.
type Counts struct {
	Sent      int64 `json:"sent"`
	Delivered int64 `json:"delivered"`
	Failed    int64 `json:"failed"`
	Skipped   int64 `json:"skipped"`
	Seen      int64 `json:"seen"`
	Read      int64 `json:"read"`
	Clicked   int64 `json:"clicked"`
}

// add counts n messages of an event; unknown events are ignored.
func (c *Counts) add(event string, n int64) {
	switch event {
	case EventSent:
		c.Sent += n
	case EventDelivered:
		c.Delivered += n
	case EventFailed:
		c.Failed += n
	case EventSkipped:
		c.Skipped += n
	case EventSeen:
		c.Seen += n
	case EventRead:
		c.Read += n
	case EventClicked:
		c.Clicked += n
	}
}

func (c *Counts) plus(o Counts) {
	c.Sent += o.Sent
	c.Delivered += o.Delivered
	c.Failed += o.Failed
	c.Skipped += o.Skipped
	c.Seen += o.Seen
	c.Read += o.Read
	c.Clicked += o.Clicked
}

// Day is one UTC day's counts.
type Day struct {
	// Date is the day, YYYY-MM-DD (UTC).
	Date string `json:"date"`
	Counts
}

// Series is the counts of a range: the totals and every day of it, days without events
// included.
type Series struct {
	Totals Counts `json:"totals"`
	Days   []Day  `json:"days"`
}

// series collects counts into per-key daily series over a range.
type series struct {
	r    Range
	keys []string
	by   map[string]*Series
}

func newSeries(r Range) *series { return &series{r: r, by: map[string]*Series{}} }

// get returns the series of a key, creating it (all days zero) on first use.
func (s *series) get(key string) *Series {
	if out, ok := s.by[key]; ok {
		return out
	}
	out := &Series{Days: make([]Day, s.r.Days())}
	first := s.r.FirstDay()
	for i := range out.Days {
		out.Days[i].Date = first.AddDate(0, 0, i).Format(dateLayout)
	}
	s.by[key] = out
	s.keys = append(s.keys, key)
	return out
}

// add counts n messages of an event on a day for a key.
func (s *series) add(key string, d pgtype.Date, event string, n int64) {
	out := s.get(key)
	i := int(d.Time.Sub(s.r.FirstDay()) / (24 * time.Hour))
	if i < 0 || i >= len(out.Days) {
		return
	}
	out.Days[i].add(event, n)
	out.Totals.add(event, n)
}

func pgDate(t time.Time) pgtype.Date { return pgtype.Date{Time: t, Valid: true} }
