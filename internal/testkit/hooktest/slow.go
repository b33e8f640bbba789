// Package hooktest is a webhook endpoint for tests that answers after a delay and counts
// what it serves: the calls in flight per path (and their peak), and the calls per path
// and recipient.
package hooktest

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Slow is the endpoint; it closes when the test ends.
type Slow struct {
	// URL is the endpoint's base URL: instances add a path per app (URL+"/a").
	URL string

	mu             sync.Mutex
	inFlight, peak map[string]int
	calls          map[string]int
}

// NewSlow starts an endpoint that answers 200 to each call after delay.
func NewSlow(t testing.TB, delay time.Duration) *Slow {
	s := &Slow{inFlight: map[string]int{}, peak: map[string]int{}, calls: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Recipient struct{ Identifier string } `json:"recipient"`
		}
		raw, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(raw, &body)
		s.mu.Lock()
		s.calls[r.URL.Path+" "+body.Recipient.Identifier]++
		s.inFlight[r.URL.Path]++
		s.peak[r.URL.Path] = max(s.peak[r.URL.Path], s.inFlight[r.URL.Path])
		s.mu.Unlock()
		time.Sleep(delay)
		s.mu.Lock()
		s.inFlight[r.URL.Path]--
		s.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Peak returns the most calls to path that were in flight at once.
func (s *Slow) Peak(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak[path]
}

// Calls returns the calls so far per path and recipient ("/a ann").
func (s *Slow) Calls() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.calls)
}
