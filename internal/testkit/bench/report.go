package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Report collects the results of one suite run for docs/benchmarks.md.
type Report struct {
	Date     time.Time
	Commit   string
	Machine  string
	Mode     string
	Accept   *AcceptResult
	Delivery *DeliveryResult
	Inbox    *InboxResult
	// Broadcast is scenario 3.
	Broadcast *BroadcastResult
	// Email and Webhook are scenarios 5 and 6: external delivery.
	Email, Webhook *ExternalResult
	// FanOut is scenario 7: one send over in-app, email and webhook to a topic.
	FanOut *FanOutResult
	// Rate is scenario 8: a provider instance's configured send rate, observed.
	Rate *RateResult
	// Isolation is scenario 9: one app's latency beside another's broadcast, burst and
	// hung provider.
	Isolation *IsolationResult
	// Retention is scenario 10: the retention purge beside inbox reads, and the
	// partitioning measurement.
	Retention *RetentionResult
	Notes     []string
}

// NewReport fills in the machine, date and commit.
func NewReport(mode string) *Report {
	r := &Report{Date: time.Now().UTC(), Mode: mode, Machine: machine()}
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		r.Commit = strings.TrimSpace(string(out))
	}
	return r
}

func machine() string {
	model := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		s := bufio.NewScanner(f)
		for s.Scan() {
			if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		fmt.Sscanf(strings.SplitN(string(b), "\n", 2)[0], "MemTotal: %d kB", &kb)
		mem = fmt.Sprintf(", %.0f GiB RAM", float64(kb)/(1<<20))
	}
	return fmt.Sprintf("%d cores (%s)%s, %s/%s, %s", runtime.NumCPU(), model, mem, runtime.GOOS, runtime.GOARCH, runtime.Version())
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

// Write renders the report as Markdown.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "## Suite (`make bench`, `make bench-quick`)\n\nWritten by `cmd/herald-bench`. Every figure is measured in the same run as its physical\nreference, so the ratio carries across machines better than the absolute number.\n\n")
	fmt.Fprintf(w, "- Date: %s\n- Commit: %s\n- Machine: %s\n- Mode: %s (everything on one box: Postgres, Temporal dev server, Herald, load generator)\n\n",
		r.Date.Format(time.RFC3339), r.Commit, r.Machine, r.Mode)
	if a := r.Accept; a != nil {
		ratio := a.Send.Rate() / max(a.Reference.Rate(), 1)
		fmt.Fprintf(w, "## 1. Accept: POST /v3/notifications, one recipient, %d concurrent clients, %s\n\n", a.Concurrency, a.Send.Duration.Round(time.Second))
		fmt.Fprintf(w, "| measure | value | target |\n|---|---|---|\n")
		fmt.Fprintf(w, "| sends accepted/s | %.0f (errors: %d) | ≥ 0.3 × reference — %s |\n", a.Send.Rate(), a.Send.Errors, verdict(ratio >= 0.3))
		fmt.Fprintf(w, "| p50 / p99 | %s / %s | p99 ≤ 50 ms — %s |\n", ms(a.Send.P50), ms(a.Send.P99), verdict(a.Send.P99 <= 50*time.Millisecond))
		fmt.Fprintf(w, "| reference: single-row insert tx/s | %.0f (p99 %s) | |\n", a.Reference.Rate(), ms(a.Reference.P99))
		fmt.Fprintf(w, "| ratio | %.2f | ≥ 0.30 |\n\n", ratio)
		if a.Send.FirstError != "" {
			fmt.Fprintf(w, "First error: `%s`\n\n", a.Send.FirstError)
		}
	}
	if d := r.Delivery; d != nil {
		ratio := d.DeliveredPerSec / max(d.Reference.Rate(), 1)
		fmt.Fprintf(w, "## 2. Sustained in-app delivery (accept → inbox row), single recipient\n\n")
		fmt.Fprintf(w, "| measure | value | target |\n|---|---|---|\n")
		fmt.Fprintf(w, "| delivered/s during load (%d accepted) | %.0f | ≥ 1,000 and ≥ 15 × reference — %s |\n", d.Accepted, d.DeliveredPerSec, verdict(d.DeliveredPerSec >= 1000 && ratio >= 15))
		fmt.Fprintf(w, "| backlog drained after load | %s | |\n", d.Drain.Round(100*time.Millisecond))
		fmt.Fprintf(w, "| p50 / p99 accept→inbox at %.0f sends/s (half) | %s / %s | p50 ≤ 300 ms — %s |\n", d.HalfRate, ms(d.HalfP50), ms(d.HalfP99), verdict(d.HalfP50 <= 300*time.Millisecond))
		fmt.Fprintf(w, "| p50 / p99 accept→inbox at 10 sends/s | %s / %s | p50 ≤ 150 ms — %s |\n", ms(d.LowP50), ms(d.LowP99), verdict(d.LowP50 <= 150*time.Millisecond))
		fmt.Fprintf(w, "| reference: trivial workflows/s (start + 1 activity) | %.0f | |\n", d.Reference.Rate())
		fmt.Fprintf(w, "| ratio | %.1f | ≥ 15 |\n\n", ratio)
		fmt.Fprintf(w, "The load phase runs %d closed-loop clients but holds back while %d sends are accepted and not yet in the inbox, so the rate is what the stack keeps up with, not how fast the API queues work.\n\n", d.Concurrency, d.Backlog)
	}
	if b := r.Broadcast; b != nil {
		b.write(w)
	}
	if in := r.Inbox; in != nil {
		in.write(w)
	}
	if e := r.Email; e != nil {
		e.write(w, 5)
	}
	if h := r.Webhook; h != nil {
		h.write(w, 6)
	}
	if f := r.FanOut; f != nil {
		f.write(w)
	}
	if rt := r.Rate; rt != nil {
		rt.write(w)
	}
	if iso := r.Isolation; iso != nil {
		iso.write(w)
	}
	if rt := r.Retention; rt != nil {
		rt.write(w)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "- %s\n", n)
	}
}

// Markers delimit the suite's section in docs/benchmarks.md; the rest of the file (other
// benchmarks' sections, notes) is kept when the suite rewrites its own.
const (
	startMarker = "<!-- herald-bench:start -->"
	endMarker   = "<!-- herald-bench:end -->"
)

// Splice returns doc with the suite's section replaced by section (or appended when the
// markers are missing).
func Splice(doc, section string) string {
	block := startMarker + "\n" + section + endMarker + "\n"
	i, j := strings.Index(doc, startMarker), strings.Index(doc, endMarker)
	if i < 0 || j < i {
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		return doc + "\n" + block
	}
	return doc[:i] + block + strings.TrimPrefix(doc[j+len(endMarker):], "\n")
}
