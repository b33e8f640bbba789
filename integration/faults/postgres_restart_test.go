package faults

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/platform/devenv"
	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// privatePostgres starts a Postgres cluster of the test's own (initdb in a temporary
// directory) with a migrated database, and returns the URL and the directory to stop and
// start it with. The cluster is stopped and removed when the test ends.
func privatePostgres(t *testing.T) (string, string) {
	t.Helper()
	ctx := context.Background()
	// Postgres runs as an unprivileged user when the test runs as root: the directory
	// must be one that user can reach.
	parent, err := os.MkdirTemp("", "herald-fault-pg-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "pg")
	url, err := devenv.PrivatePostgres(ctx, dir, "herald")
	if err != nil {
		os.RemoveAll(parent)
		t.Skipf("no private Postgres cluster (the PostgreSQL server binaries are needed): %v", err)
	}
	t.Cleanup(func() {
		_ = devenv.StopPrivatePostgres(context.Background(), dir)
		os.RemoveAll(parent)
	})
	if err := db.Migrate(ctx, url, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatalf("migrate the private cluster: %v", err)
	}
	return url, dir
}

// Scenario 4: Postgres is restarted (pg_ctl stop -m fast, a pause, start), then frozen
// (SIGSTOP on every process of the cluster, a pause, SIGCONT), while senders and an inbox
// reader keep calling the API. During each outage the API answers 503, never a 500 and
// never later than its request timeout; it recovers by itself; and every send that got a
// 202 is delivered.
func TestPostgresRestartUnderLoad(t *testing.T) {
	slow(t)
	url, dir := privatePostgres(t)
	const requestTimeout = 3 * time.Second
	s := proctest.New(t, url, stacktest.SharedTemporal(t).Address)
	s.Env = append(s.Env, "HERALD_REQUEST_TIMEOUT="+requestTimeout.String())
	creds, err := s.Local.Apps.Create(context.Background(), "faults")
	if err != nil {
		t.Fatal(err)
	}
	api := s.Start("api")
	worker := s.Start("worker")
	l := startLoad(newClient(t, s, creds, requestTimeout+5*time.Second), 3, true)
	ctx := context.Background()

	time.Sleep(2 * time.Second)
	l.phase("restart")
	if err := devenv.StopPrivatePostgres(ctx, dir); err != nil {
		t.Fatalf("stop Postgres: %v", err)
	}
	time.Sleep(4 * time.Second)
	if _, err := devenv.PrivatePostgres(ctx, dir, "herald"); err != nil {
		t.Fatalf("start Postgres again: %v", err)
	}
	restartBack := l.waitAccepted(t, "restart", time.Minute)

	time.Sleep(time.Second)
	l.phase("freeze")
	resume := freeze(t, dir)
	time.Sleep(2*requestTimeout + time.Second)
	resume()
	freezeBack := l.waitAccepted(t, "freeze", time.Minute)
	time.Sleep(time.Second)
	results := l.stop()

	counts := map[string]int{}
	var accepted []string
	var slowest time.Duration
	bad := 0
	for _, r := range results {
		key := fmt.Sprint(r.status)
		if r.err != nil {
			key = "error: " + firstLine(r.err)
		}
		counts[r.phase+" "+key]++
		slowest = max(slowest, r.took)
		if r.status == 202 {
			accepted = append(accepted, r.request)
		}
		if r.err != nil || r.status >= 500 && r.status != 503 {
			bad++
			if bad <= 5 {
				t.Errorf("%s: request at %s: status %d, error %v, after %s: %s", r.phase, r.at.Format("15:04:05.000"), r.status, r.err, r.took, r.body)
			}
		}
		if r.took > requestTimeout+2*time.Second {
			t.Errorf("%s: a request took %s, past the request timeout of %s", r.phase, r.took, requestTimeout)
		}
	}
	t.Logf("restart: Postgres stopped 4 s; first send accepted again %s after it started", restartBack.Round(time.Millisecond))
	t.Logf("freeze: Postgres frozen %s; first send accepted again %s after it resumed", 2*requestTimeout+time.Second, freezeBack.Round(time.Millisecond))
	t.Logf("%d requests (request timeout %s, slowest answer %s); statuses by phase: %s", len(results), requestTimeout, slowest.Round(time.Millisecond), formatCounts(counts))
	for _, ph := range []string{"restart", "freeze"} {
		if counts[ph+" 503"] == 0 {
			t.Errorf("no 503 during the %s outage", ph)
		}
	}

	// Nothing that was accepted is lost: every 202 is delivered.
	wait := s.Eventually(2*time.Minute, "every accepted send completed", func() bool {
		return s.Count("SELECT count(*) FROM notification_requests WHERE id = ANY($1::uuid[]) AND status = 'completed'", accepted) == len(accepted)
	})
	t.Logf("%d sends got 202; all completed (the last %s after the load stopped)", len(accepted), wait.Round(100*time.Millisecond))
	if api.Exited() || worker.Exited() {
		t.Errorf("a process exited during the outages (api %v, worker %v)", api.Exited(), worker.Exited())
	}
	if t.Failed() {
		t.Logf("api log:\n%s", tail(api.Log()))
	}
}

// freeze stops every process of the Postgres cluster in dir with SIGSTOP, as a hung
// server or a network partition would look, and returns the function that resumes them.
func freeze(t *testing.T, dir string) (resume func()) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		t.Fatalf("postmaster.pid: %v", err)
	}
	master, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	if err != nil {
		t.Fatalf("postmaster.pid: %v", err)
	}
	pids := append([]int{master}, children(master)...)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGSTOP)
	}
	return func() {
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGCONT)
		}
	}
}

// children lists the processes whose parent is pid, from /proc.
func children(pid int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The fields after the command name (which may hold spaces) start after ")".
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}
