package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/devenv"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Local is a Herald stack the benchmark started on this machine: real processes of the
// built binaries, a fresh database, and (for the full stack) herald dev's own Temporal dev
// server with its SQLite file.
type Local struct {
	Target
	procs []*exec.Cmd
	Log   string
	// herald and env run `herald` subcommands against this stack (CreateApp).
	herald string
	env    []string
}

// CreateApp creates another app in the stack's database and returns a target that sends
// as it (the isolation scenario's second app).
func (l *Local) CreateApp(ctx context.Context, name string) (Target, error) {
	create := exec.CommandContext(ctx, l.herald, "apps", "create", "--name", name)
	create.Env = l.env
	out, err := create.Output()
	if err != nil {
		return Target{}, fmt.Errorf("herald apps create: %w", err)
	}
	var creds apps.Credentials
	if err := json.Unmarshal(out, &creds); err != nil {
		return Target{}, fmt.Errorf("herald apps create printed %q: %w", out, err)
	}
	t := l.Target
	t.APIKey, t.APISecret = creds.APIKey, creds.APISecret
	return t, nil
}

// LocalOptions choose what to start.
type LocalOptions struct {
	// Bin holds herald and temporal.
	Bin string
	// DataDir holds logs and Temporal state.
	DataDir string
	// Full runs `herald dev` (API + worker + relay + Temporal); otherwise only `herald api`
	// with no Temporal, which measures the accept path alone.
	Full bool
	// Env adds variables to the processes.
	Env []string
	// Temporal is the address of a running Temporal server (a cluster) to use instead of
	// the dev server `herald dev` starts.
	Temporal string
	// Split runs the full stack as a production deployment does: `herald api` (API and
	// relay) and `herald worker` in separate processes, so the relay's eager start finds
	// no local worker (needs Temporal; with Full).
	Split bool
}

// StartLocal starts a stack and creates an app on it.
func StartLocal(ctx context.Context, o LocalOptions) (*Local, error) {
	if o.Split && (!o.Full || o.Temporal == "") {
		return nil, fmt.Errorf("a split stack (herald api + herald worker) needs the full stack and a running Temporal server")
	}
	base := os.Getenv("HERALD_DATABASE_URL")
	if base == "" {
		base = config.Defaults().DatabaseURL
	}
	if !devenv.PostgresAnswers(ctx, base) {
		u, err := devenv.PrivatePostgres(ctx, filepath.Join(o.DataDir, "..", "pg"), "postgres")
		if err != nil {
			return nil, err
		}
		base = u
	}
	dbURL := db.WithDatabase(base, fmt.Sprintf("herald_bench_%d", time.Now().UnixNano()))
	httpPort, _ := devenv.FreePort()
	temporalPort, _ := devenv.FreePort()
	temporalAddr := "127.0.0.1:" + strconv.Itoa(temporalPort)
	if o.Temporal != "" {
		temporalAddr = o.Temporal
	}
	l := &Local{Target: Target{
		BaseURL: "http://127.0.0.1:" + strconv.Itoa(httpPort), HeaderPrefix: "X-SERVICE-", DatabaseURL: dbURL,
		TemporalAddr: temporalAddr,
	}}
	if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
		return nil, err
	}
	// Every stack starts with an empty Temporal store: workflows left by an earlier run (the
	// reference's, cut off when its phase ended) would otherwise time out and retry in the
	// background of this one.
	for _, f := range []string{"temporal.db", "temporal.db-wal", "temporal.db-shm"} {
		if err := os.Remove(filepath.Join(o.DataDir, f)); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	env := append(os.Environ(),
		"HERALD_DATABASE_URL="+dbURL,
		"HERALD_HTTP_ADDR=127.0.0.1:"+strconv.Itoa(httpPort),
		"HERALD_TEMPORAL_ADDRESS="+l.TemporalAddr,
		"HERALD_SECRET_KEY="+secrets.Token(24),
		"HERALD_DATA_DIR="+o.DataDir,
		"HERALD_TEMPORAL_CLI="+filepath.Join(o.Bin, "temporal"),
		"HERALD_LOG_LEVEL=warn",
		"HERALD_METRICS_ADDR=127.0.0.1:0", // one default port per host; these are many processes
	)
	env = append(env, o.Env...)
	herald := filepath.Join(o.Bin, "herald")
	l.herald, l.env = herald, env
	migrate := exec.CommandContext(ctx, herald, "migrate")
	migrate.Env = env
	if out, err := migrate.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("herald migrate: %w\n%s", err, out)
	}
	create := exec.CommandContext(ctx, herald, "apps", "create", "--name", "bench")
	create.Env = env
	out, err := create.Output()
	if err != nil {
		return nil, fmt.Errorf("herald apps create: %w", err)
	}
	var creds apps.Credentials
	if err := json.Unmarshal(out, &creds); err != nil {
		return nil, fmt.Errorf("herald apps create printed %q: %w", out, err)
	}
	l.APIKey, l.APISecret = creds.APIKey, creds.APISecret

	modes := []string{"api"}
	switch {
	case o.Full && o.Split:
		modes = []string{"api", "worker"}
	case o.Full:
		modes = []string{"dev"}
	}
	for _, mode := range modes {
		log := filepath.Join(o.DataDir, "herald-"+mode+".log")
		if l.Log == "" {
			l.Log = log
		}
		logFile, err := os.Create(log)
		if err != nil {
			l.Stop()
			return nil, err
		}
		cmd := exec.Command(herald, mode)
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = logFile, logFile
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			l.Stop()
			return nil, err
		}
		l.procs = append(l.procs, cmd)
	}
	if err := l.waitHTTP(ctx, 2*time.Minute); err != nil {
		l.Stop()
		return nil, fmt.Errorf("%w (log: %s)", err, l.Log)
	}
	if o.Split {
		if err := waitPollers(ctx, l.TemporalAddr, 2*time.Minute); err != nil {
			l.Stop()
			return nil, fmt.Errorf("%w (log: %s)", err, filepath.Join(o.DataDir, "herald-worker.log"))
		}
	}
	return l, nil
}

func (l *Local) waitHTTP(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		res, err := http.Get(l.BaseURL + "/v1/health")
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return fmt.Errorf("herald did not answer at %s within %s", l.BaseURL, limit)
}

// PID returns the process id of the herald process that delivers: `herald dev`, or
// `herald worker` with Split (for the worker's RSS readings); `herald api` when alone.
func (l *Local) PID() int { return l.procs[len(l.procs)-1].Process.Pid }

// Stop ends the processes (SIGTERM, then SIGKILL) and drops the database.
func (l *Local) Stop() {
	for _, p := range l.procs {
		_ = syscall.Kill(-p.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	if os.Getenv("HERALD_BENCH_KEEP_DB") == "" {
		dropDatabase(l.DatabaseURL)
	}
}

// waitPollers waits until a worker polls the orchestration queue's workflow tasks at addr,
// so a split stack's first sends do not wait for the worker to start.
func waitPollers(ctx context.Context, addr string, limit time.Duration) error {
	queue := os.Getenv("HERALD_TASK_QUEUE")
	if queue == "" {
		queue = config.Defaults().TaskQueue
	}
	c, err := client.Dial(client.Options{HostPort: addr, Logger: silent{}})
	if err != nil {
		return err
	}
	defer c.Close()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		res, err := c.DescribeTaskQueue(ctx, queue, enums.TASK_QUEUE_TYPE_WORKFLOW)
		if err == nil && len(res.GetPollers()) > 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return fmt.Errorf("no worker polls the task queue %s at %s within %s", queue, addr, limit)
}
