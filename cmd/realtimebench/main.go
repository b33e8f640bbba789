// Command realtimebench measures Herald's realtime layer on this machine: it starts a
// Temporal dev server, `herald api` and `herald worker` on a fresh database, holds N idle
// Socket.IO connections (distinct users) against the API, and reports the API process's
// resident memory and the latency from a send (POST /v3/notifications) to the
// NEW_NOTIFICATION event, and from a bus publish to its event. `make bench-realtime` runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type options struct {
	herald, temporalCLI, serverURL string
	conns, sends, publishes        int
	rate                           float64
	settle                         time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.herald, "herald", "bin/herald", "the herald binary")
	flag.StringVar(&o.temporalCLI, "temporal", "bin/temporal", "the Temporal CLI")
	flag.StringVar(&o.serverURL, "postgres", envOr("HERALD_BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "Postgres server URL (a database is created and dropped)")
	flag.IntVar(&o.conns, "conns", 10000, "idle connections to hold")
	flag.IntVar(&o.sends, "sends", 200, "sends through the API whose latency is measured, one at a time")
	flag.Float64Var(&o.rate, "rate", 0, "send at this rate per second (open loop, each send to another connection) instead of one at a time")
	flag.IntVar(&o.publishes, "publishes", 1000, "bus publishes whose latency is measured, one at a time")
	flag.DurationVar(&o.settle, "settle", 5*time.Second, "wait before reading the API's memory")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, o)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "realtimebench:", err)
		os.Exit(1)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func run(ctx context.Context, o options) error {
	limit, err := raiseFileLimit()
	if err != nil {
		return err
	}
	if need := uint64(o.conns) + 512; limit < need {
		return fmt.Errorf("the open-file limit is %d; %d connections need about %d (raise the hard limit: ulimit -Hn)", limit, o.conns, need)
	}
	env, err := startEnv(ctx, o)
	if err != nil {
		return err
	}
	defer env.stop()
	r := report{conns: o.conns}
	if r.rssIdle, err = rss(env.api.Process.Pid); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "opening %d connections...\n", o.conns)
	start := time.Now()
	fleet, err := openFleet(ctx, env.baseURL, env.creds.APIKey, o.conns)
	if err != nil {
		return err
	}
	defer fleet.close()
	r.connectTime = time.Since(start)
	time.Sleep(o.settle)
	if r.rssLoaded, err = rss(env.api.Process.Pid); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "measuring %d sends and %d publishes...\n", o.sends, o.publishes)
	measure := func() ([]time.Duration, error) { return measureSends(ctx, env, fleet, o.sends) }
	if o.rate > 0 {
		measure = func() ([]time.Duration, error) { return measureSendsAtRate(ctx, env, fleet, o.sends, o.rate) }
	}
	if r.send, err = measure(); err != nil {
		return err
	}
	if r.publish, err = measurePublishes(ctx, env, fleet, o.publishes); err != nil {
		return err
	}
	if r.rssAfter, err = rss(env.api.Process.Pid); err != nil {
		return err
	}
	r.dropped = fleet.dropped()
	r.print(os.Stdout)
	return nil
}

// raiseFileLimit lifts the soft open-file limit to the hard one; the API process started
// later inherits it.
func raiseFileLimit() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	l.Cur = l.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	return l.Cur, nil
}
