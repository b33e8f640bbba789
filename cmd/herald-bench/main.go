// Command herald-bench runs Herald's benchmark suite against a stack it starts itself (or a
// running deployment with -url) and writes the figures to docs/benchmarks.md.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/heraldhq/herald/internal/testkit/bench"
)

func main() {
	if v := os.Getenv(bench.BurnEnv); v != "" {
		cores, err := strconv.ParseFloat(v, 64)
		if err != nil || cores <= 0 {
			fmt.Fprintf(os.Stderr, "herald-bench: %s=%q: want a number of cores above 0\n", bench.BurnEnv, v)
			os.Exit(2)
		}
		bench.Burn(cores)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "herald-bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	quick := flag.Bool("quick", false, "short phases (about 3 minutes in all)")
	scenarios := flag.String("scenarios", "accept,delivery,broadcast,inbox,email,webhook,fanout,rate,isolation,retention", "comma-separated: accept, delivery, broadcast, inbox, email, webhook, fanout, rate, isolation, retention")
	isoControl := flag.Float64("isolation-control", 0, "run the isolation scenario's second phase beside a process burning this many cores instead of app A's noise: a control for what the CPU alone costs app B (0: off)")
	isoMembers := flag.Int("isolation-broadcast", 0, "topic size of app A's broadcast in the isolation scenario (default 20,000; 5,000 with -quick)")
	out := flag.String("out", "docs/benchmarks.md", "report file ('-' for stdout)")
	bin := flag.String("bin", "bin", "directory with the herald and temporal binaries")
	concurrency := flag.Int("c", 32, "concurrent clients")
	members := flag.Int("broadcast", 0, "topic size of the broadcast scenario (default 100,000; 20,000 with -quick)")
	extClients := flag.Int("ext-c", 16, "concurrent clients of the email and webhook scenarios (and of their plain-client references)")
	extSends := flag.Int("ext-sends", 0, "single-recipient sends of the email and webhook scenarios (default 10,000; 2,000 with -quick)")
	extMembers := flag.Int("ext-broadcast", 10_000, "topic size of the email and webhook broadcasts (0: none)")
	sendRate := flag.Float64("send-rate", 50, "config.sendRate of the rate scenario's SMTP instance (messages per second)")
	fanMembers := flag.Int("fanout", 10_000, "topic size of the fan-out scenario (in-app + email + webhook)")
	temporal := flag.String("temporal", "", "address of a running Temporal server (a cluster, `make test-cluster`) to use instead of the dev server")
	split := flag.Bool("split", false, "with -temporal: run `herald api` and `herald worker` as separate processes, as a production deployment does (the relay's eager start then finds no local worker), instead of `herald dev`")
	flag.Parse()
	if *split && *temporal == "" {
		return fmt.Errorf("-split needs -temporal (a running Temporal server)")
	}

	acceptDur, loadDur, latDur := 20*time.Second, 60*time.Second, 20*time.Second
	mode := "full"
	if *quick {
		acceptDur, loadDur, latDur, mode = 5*time.Second, 10*time.Second, 5*time.Second, "quick"
	}
	want := map[string]bool{}
	for _, s := range strings.Split(*scenarios, ",") {
		want[strings.TrimSpace(s)] = true
	}
	binDir, _ := filepath.Abs(*bin)
	data, _ := filepath.Abs(filepath.Join(".data", "bench"))
	report := bench.NewReport(mode)
	if *temporal != "" {
		report.Notes = append(report.Notes, fmt.Sprintf("Temporal: the server at %s (`make test-cluster`: Postgres persistence), not the dev server.", *temporal))
		if *split {
			report.Notes = append(report.Notes, "Herald: `herald api` (API and relay) and `herald worker` (every queue, default slots) as separate processes, as in production, not `herald dev`.")
		}
	}

	failed := 0
	if want["accept"] {
		failed += scenario(report, "accept", func() error {
			fmt.Fprintln(os.Stderr, "== 1. accept (herald api alone) ...")
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data})
			if err != nil {
				return err
			}
			res, err := bench.Accept(ctx, &l.Target, *concurrency, acceptDur)
			l.Stop()
			if err != nil {
				return err
			}
			report.Accept = &res
			fmt.Fprintf(os.Stderr, "   %.0f sends/s (p99 %s), reference %.0f inserts/s\n", res.Send.Rate(), res.Send.P99, res.Reference.Rate())
			return nil
		})
	}
	if want["delivery"] {
		failed += scenario(report, "delivery", func() error {
			fmt.Fprintln(os.Stderr, "== 2. sustained delivery (herald dev: API + worker + relay + Temporal dev server) ...")
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data, Full: true, Temporal: *temporal, Split: *split})
			if err != nil {
				return err
			}
			res, err := bench.Delivery(ctx, &l.Target, *concurrency, loadDur, latDur)
			l.Stop()
			if err != nil {
				return err
			}
			report.Delivery = &res
			fmt.Fprintf(os.Stderr, "   %.0f delivered/s; half-rate p50 %s; reference %.0f workflows/s\n", res.DeliveredPerSec, res.HalfP50, res.Reference.Rate())
			return nil
		})
	}
	if want["broadcast"] {
		failed += scenario(report, "broadcast", func() error {
			members := *members
			switch {
			case members > 0:
			case *quick:
				members = 20_000
			default:
				members = 100_000
			}
			fmt.Fprintf(os.Stderr, "== 3. broadcast to a topic of %d users (herald dev) ...\n", members)
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data, Full: true, Temporal: *temporal, Split: *split})
			if err != nil {
				return err
			}
			res, err := bench.Broadcast(ctx, &l.Target, members, l.PID())
			l.Stop()
			if err != nil {
				return err
			}
			report.Broadcast = &res
			fmt.Fprintf(os.Stderr, "   %s for %d rows; CopyFrom reference %s\n", res.Took.Round(100*time.Millisecond), members, res.Reference.Round(10*time.Millisecond))
			return nil
		})
	}
	if want["inbox"] {
		failed += scenario(report, "inbox", func() error {
			rows, users, heavy := 1_000_000, 10_000, 100_000
			if *quick {
				rows, users, heavy = 100_000, 1_000, 10_000
			}
			fmt.Fprintf(os.Stderr, "== 4. inbox read (%d rows; herald api alone) ...\n", rows)
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data})
			if err != nil {
				return err
			}
			res, err := bench.Inbox(ctx, &l.Target, rows, users, heavy, *concurrency, acceptDur)
			l.Stop()
			if err != nil {
				return err
			}
			report.Inbox = &res
			fmt.Fprintf(os.Stderr, "   page 1 p99 %s, page 500 p99 %s\n", res.Page1.P99, res.Page500.P99)
			return nil
		})
	}
	if want["retention"] {
		failed += scenario(report, "retention", func() error {
			live, expired, users := 200_000, 1_000_000, 1_000
			if *quick {
				live, expired, users = 50_000, 200_000, 500
			}
			fmt.Fprintf(os.Stderr, "== 10. retention purge (%d expired rows beside %d live; herald api alone) ...\n", expired, live)
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data})
			if err != nil {
				return err
			}
			res, err := bench.Retention(ctx, &l.Target, live, expired, users, 5000, *concurrency, acceptDur)
			l.Stop()
			if err != nil {
				return err
			}
			report.Retention = &res
			fmt.Fprintf(os.Stderr, "   p99 before %s, during %s; purged %d in %s\n", res.Before.P99, res.During.P99, res.Purged, res.PurgeTime)
			return nil
		})
	}
	for _, channel := range []string{"email", "webhook"} {
		if !want[channel] {
			continue
		}
		failed += scenario(report, channel, func() error {
			sends := *extSends
			switch {
			case sends > 0:
			case *quick:
				sends = 2_000
			default:
				sends = 10_000
			}
			fmt.Fprintf(os.Stderr, "== %s: %d single-recipient sends, then a broadcast to %d (herald dev) ...\n", channel, sends, *extMembers)
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data, Full: true, Env: bench.ExternalEnv, Temporal: *temporal, Split: *split})
			if err != nil {
				return err
			}
			res, err := bench.External(ctx, &l.Target, channel, sends, *extClients, *extMembers, l.PID())
			l.Stop()
			if err != nil {
				return err
			}
			if channel == "email" {
				report.Email = &res
			} else {
				report.Webhook = &res
			}
			fmt.Fprintf(os.Stderr, "   %.0f messages/s; reference %.0f/s per connection, %.0f/s reused; broadcast %s\n",
				res.PerSec(), res.RefFresh, res.RefReuse, res.BroadcastTook.Round(100*time.Millisecond))
			return nil
		})
	}
	if want["fanout"] {
		failed += scenario(report, "fanout", func() error {
			fmt.Fprintf(os.Stderr, "== 7. fan-out: one send to %d users over in-app + email + webhook (herald dev) ...\n", *fanMembers)
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data, Full: true, Env: bench.ExternalEnv, Temporal: *temporal, Split: *split})
			if err != nil {
				return err
			}
			res, err := bench.FanOut(ctx, &l.Target, *fanMembers, l.PID())
			l.Stop()
			if err != nil {
				return err
			}
			report.FanOut = &res
			fmt.Fprintf(os.Stderr, "   in-app %s, email %s, webhook %s; peak RSS %d MiB\n", res.InApp.Round(100*time.Millisecond),
				res.Email.Round(100*time.Millisecond), res.Webhook.Round(100*time.Millisecond), res.WorkerRSS>>20)
			return nil
		})
	}
	if want["isolation"] {
		failed += scenario(report, "isolation", func() error {
			members, phase := *isoMembers, 20*time.Second
			if *quick {
				phase = 10 * time.Second
			}
			switch {
			case members > 0:
			case *quick:
				members = 5_000
			default:
				members = 20_000
			}
			stack := "herald dev"
			if *split {
				stack = "herald api + herald worker"
			}
			fmt.Fprintf(os.Stderr, "== 9. isolation: app B at 10 sends/s beside app A's broadcast to %d, burst and hung SMTP server (%s) ...\n", members, stack)
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data, Full: true, Env: bench.ExternalEnv, Temporal: *temporal, Split: *split})
			if err != nil {
				return err
			}
			defer l.Stop()
			b, err := l.CreateApp(ctx, "bench-b")
			if err != nil {
				return err
			}
			res, err := bench.Isolation(ctx, &l.Target, &b, members, phase, *isoControl)
			report.Isolation = &res
			if err != nil {
				return err
			}
			if res.Control > 0 {
				fmt.Fprintf(os.Stderr, "   B idle p50 %s p99 %s; beside the CPU control (%.2f cores measured) p50 %s p99 %s, lost %d\n",
					res.Idle.P50, res.Idle.P99, res.ControlCores, res.Noisy.P50, res.Noisy.P99, res.Noisy.Lost)
				return nil
			}
			fmt.Fprintf(os.Stderr, "   B idle p50 %s p99 %s; noisy p50 %s p99 %s, lost %d; A in-app %s; held emails %d delivered %d in %s\n",
				res.Idle.P50, res.Idle.P99, res.Noisy.P50, res.Noisy.P99, res.Noisy.Lost, res.BroadcastInApp, res.HeldEmails, res.Delivered, res.Resumed)
			return nil
		})
	}
	if want["rate"] {
		failed += scenario(report, "rate", func() error {
			n := int(*sendRate * 10) // ten seconds at the configured rate
			fmt.Fprintf(os.Stderr, "== 8. provider send rate: %d emails through an instance limited to %g/s (herald dev) ...\n", n, *sendRate)
			l, err := bench.StartLocal(ctx, bench.LocalOptions{Bin: binDir, DataDir: data, Full: true, Env: bench.ExternalEnv, Temporal: *temporal, Split: *split})
			if err != nil {
				return err
			}
			res, err := bench.ProviderRate(ctx, &l.Target, *sendRate, n)
			l.Stop()
			if err != nil {
				return err
			}
			report.Rate = &res
			fmt.Fprintf(os.Stderr, "   observed %.1f/s (most in one second: %d)\n", res.Observed, res.MaxWindow)
			return nil
		})
	}
	var buf bytes.Buffer
	report.Write(&buf)
	if *out == "-" {
		if _, err := os.Stdout.Write(buf.Bytes()); err != nil {
			return err
		}
		if failed > 0 {
			return fmt.Errorf("%d scenario(s) failed (see the notes of the report)", failed)
		}
		return nil
	}
	old, err := os.ReadFile(*out)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.WriteFile(*out, []byte(bench.Splice(string(old), buf.String())), 0o644); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d scenario(s) failed (see the notes of the report)", failed)
	}
	return nil
}

// scenario runs one scenario; a failure is reported on stderr and as a note of the report,
// and the suite goes on, so a long run keeps the figures of the scenarios that worked.
func scenario(report *bench.Report, name string, run func() error) int {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "   %s failed: %v\n", name, err)
		report.Notes = append(report.Notes, fmt.Sprintf("Scenario %s failed in this run: %v", name, err))
		return 1
	}
	return 0
}
