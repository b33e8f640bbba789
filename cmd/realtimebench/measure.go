package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/realtime"
)

// measureSends sends to users spread over the fleet, one at a time, and times each send
// until its NEW_NOTIFICATION arrives: API, outbox relay, Temporal workflow, delivery
// activity, NOTIFY, hub, socket.
func measureSends(ctx context.Context, e *env, f *fleet, n int) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	for i := range n {
		c := f.conns[(i*7919)%len(f.conns)]
		start := time.Now()
		if err := e.send(ctx, c.user); err != nil {
			return nil, err
		}
		at, err := c.await(ctx, events.NewNotification)
		if err != nil {
			return nil, err
		}
		out = append(out, at.Sub(start))
	}
	return out, nil
}

// measureSendsAtRate sends at a fixed rate (open loop: whatever the latency), each to a
// different connection, and times each send until its NEW_NOTIFICATION arrives.
func measureSendsAtRate(ctx context.Context, e *env, f *fleet, n int, rate float64) ([]time.Duration, error) {
	if n > len(f.conns) {
		n = len(f.conns)
	}
	type result struct {
		d   time.Duration
		err error
	}
	results := make(chan result, n)
	interval := time.Duration(float64(time.Second) / rate)
	start := time.Now()
	for i := range n {
		if wait := time.Until(start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait)
		}
		c := f.conns[(i*7919)%len(f.conns)]
		go func() {
			t := time.Now()
			if err := e.send(ctx, c.user); err != nil {
				results <- result{err: err}
				return
			}
			at, err := c.await(ctx, events.NewNotification)
			results <- result{d: at.Sub(t), err: err}
		}()
	}
	out := make([]time.Duration, 0, n)
	for range n {
		r := <-results
		if r.err != nil {
			return nil, r.err
		}
		out = append(out, r.d)
	}
	return out, nil
}

// measurePublishes publishes state-change events straight onto the bus, as the inbox
// service does after a commit, and times each until its event arrives: NOTIFY, hub, socket.
func measurePublishes(ctx context.Context, e *env, f *fleet, n int) ([]time.Duration, error) {
	bus := realtime.NewPGBus(e.db, e.dbURL, slog.New(slog.DiscardHandler))
	out := make([]time.Duration, 0, n)
	for i := range n {
		c := f.conns[(i*104729)%len(f.conns)]
		u, err := e.db.GetUserByIdentifier(ctx, dbsqlc.GetUserByIdentifierParams{AppID: e.creds.AppID, Identifier: c.user})
		if err != nil {
			return nil, err
		}
		start := time.Now()
		bus.Publish(ctx, events.Event{Kind: events.NotificationRead, AppID: e.creds.AppID, UserIDs: []int64{u.ID}, NotificationIDs: []int64{int64(i)}})
		at, err := c.await(ctx, events.NotificationRead)
		if err != nil {
			return nil, err
		}
		out = append(out, at.Sub(start))
	}
	return out, nil
}

// report is what one run found.
type report struct {
	conns                        int
	rssIdle, rssLoaded, rssAfter int64
	connectTime                  time.Duration
	send, publish                []time.Duration
	dropped                      int64
}

func (r report) print(w io.Writer) {
	fmt.Fprintf(w, "machine: %s, %d cores, %s\n", cpuModel(), runtime.NumCPU(), memTotal())
	fmt.Fprintf(w, "date:    %s\ncommit:  %s\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), commit())
	fmt.Fprintf(w, "| measure | value |\n|---|---|\n")
	fmt.Fprintf(w, "| idle connections | %d (opened in %s, %d dropped during the run) |\n", r.conns, r.connectTime.Round(time.Millisecond), r.dropped)
	fmt.Fprintf(w, "| API RSS before connections | %s |\n", mib(r.rssIdle))
	fmt.Fprintf(w, "| API RSS with the connections | %s (%.1f KiB per connection) |\n", mib(r.rssLoaded), float64(r.rssLoaded-r.rssIdle)/1024/float64(r.conns))
	fmt.Fprintf(w, "| API RSS after the latency runs | %s |\n", mib(r.rssAfter))
	fmt.Fprintf(w, "| send → NEW_NOTIFICATION (%d sends) | %s |\n", len(r.send), percentiles(r.send))
	fmt.Fprintf(w, "| bus publish → event (%d publishes) | %s |\n", len(r.publish), percentiles(r.publish))
}

func percentiles(d []time.Duration) string {
	if len(d) == 0 {
		return "n/a"
	}
	s := slices.Clone(d)
	slices.Sort(s)
	at := func(p float64) time.Duration { return s[min(len(s)-1, int(p*float64(len(s))))] }
	r := func(x time.Duration) string { return x.Round(10 * time.Microsecond).String() }
	return fmt.Sprintf("p50 %s, p99 %s, max %s", r(at(0.50)), r(at(0.99)), r(s[len(s)-1]))
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func memTotal() string {
	b, _ := os.ReadFile("/proc/meminfo")
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			var kb int64
			fmt.Sscan(f[1], &kb)
			return fmt.Sprintf("%.0f GiB RAM", float64(kb)/(1<<20))
		}
	}
	return "unknown RAM"
}

func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
