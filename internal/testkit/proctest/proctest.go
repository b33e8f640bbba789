// Package proctest runs Herald as real child processes for fault tests: the herald binary
// is built once per test process, and `herald api` and `herald worker` run against a test
// database and a Temporal server, to be killed (SIGKILL), stopped (SIGTERM) and restarted
// by the test. Where stacktest runs the stack inside the test process, proctest is for
// what only separate processes can show: a crash loses nothing, a shutdown is clean.
package proctest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/devenv"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/stack"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildPath string
	buildErr  error
)

// Binary builds cmd/herald once per test process and returns the path of the binary.
func Binary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		root, err := repoRoot()
		if err != nil {
			buildErr = err
			return
		}
		if buildDir, buildErr = os.MkdirTemp("", "herald-proctest-"); buildErr != nil {
			return
		}
		buildPath = filepath.Join(buildDir, "herald")
		cmd := exec.Command("go", "build", "-o", buildPath, "./cmd/herald")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/herald: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildPath
}

// Main runs a package's tests, then removes the built binary.
func Main(m interface{ Run() int }) int {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	return code
}

// Stack is the configuration shared by the processes of one test, and the test's own view
// of the same database through an in-process stack (to create apps and provider
// instances, and to read rows) that serves nothing.
type Stack struct {
	T   testing.TB
	Cfg config.Config
	// Local opens the same database with the same secret key as the processes.
	Local *stack.Stack
	// BaseURL is where `herald api` listens.
	BaseURL string
	// Env adds HERALD_* variables to every process started from now on.
	Env []string
	dir string
}

// New prepares a stack on the database at dbURL (migrated) and the Temporal server at
// temporal; the processes are started with Start.
func New(t testing.TB, dbURL, temporal string) *Stack {
	t.Helper()
	port, err := devenv.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Defaults()
	cfg.DatabaseURL = dbURL
	cfg.TemporalAddress = temporal
	if temporal == os.Getenv("HERALD_TEST_TEMPORAL_ADDRESS") {
		// The runner's server, maybe with TLS (`make test-cluster-tls`): the processes
		// inherit its HERALD_TEMPORAL_TLS_* variables, the test's own view takes them here.
		cfg.TemporalClient = stacktest.TemporalClient()
	}
	cfg.SecretKey = secrets.Token(32)
	cfg.TaskQueue = "herald-proc-" + secrets.HexToken(4)
	cfg.HTTPAddr = "127.0.0.1:" + strconv.Itoa(port)
	cfg.PrivateHosts = []string{"127.0.0.1", "localhost"}
	local, err := stack.Open(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("open the test's view of the stack: %v", err)
	}
	t.Cleanup(local.Close)
	return &Stack{T: t, Cfg: cfg, Local: local, BaseURL: "http://" + cfg.HTTPAddr, dir: t.TempDir()}
}

func (s *Stack) environ() []string {
	env := append(os.Environ(),
		"HERALD_DATABASE_URL="+s.Cfg.DatabaseURL,
		"HERALD_TEMPORAL_ADDRESS="+s.Cfg.TemporalAddress,
		"HERALD_SECRET_KEY="+s.Cfg.SecretKey,
		"HERALD_TASK_QUEUE="+s.Cfg.TaskQueue,
		"HERALD_HTTP_ADDR="+s.Cfg.HTTPAddr,
		"HERALD_PRIVATE_HOSTS=127.0.0.1,localhost",
		"HERALD_DATA_DIR="+s.dir,
		"HERALD_LOG_LEVEL=info",
		"HERALD_RELAY_POLL_INTERVAL=200ms",
		// Each process's metrics listener on a port of its own (the default 9464 is one per host).
		"HERALD_METRICS_ADDR=127.0.0.1:0",
	)
	return append(env, s.Env...)
}

// Proc is one herald process.
type Proc struct {
	Name string
	// BaseURL is where an api process started by StartAPI listens.
	BaseURL string
	t       testing.TB
	bin     string
	args    []string
	env     []string
	log     *Buffer

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// Start runs `herald <subcommand>` (api or worker). An api process is ready once it
// answers /v1/health; the process is killed when the test ends.
func (s *Stack) Start(subcommand string) *Proc {
	s.T.Helper()
	p := &Proc{Name: subcommand, t: s.T, bin: Binary(s.T), args: []string{subcommand}, env: s.environ(), log: &Buffer{}}
	p.start()
	s.T.Cleanup(p.Kill)
	if subcommand == "api" {
		s.WaitHealthy(time.Minute)
	}
	return p
}

// StartAPI runs one more `herald api`, on addr (host:port; empty: a free port of
// 127.0.0.1) rather than the stack's own address, with extra HERALD_* variables (name=value,
// winning over the stack's), and waits until it answers. Several API processes on one
// database and Temporal are what a deployment behind a load balancer runs.
func (s *Stack) StartAPI(addr string, env ...string) *Proc {
	s.T.Helper()
	return s.StartAPIBinary(Binary(s.T), addr, env...)
}

// StartAPIBinary is StartAPI with another herald binary, such as a previous release's
// (the rolling-upgrade test runs both side by side).
func (s *Stack) StartAPIBinary(bin, addr string, env ...string) *Proc {
	s.T.Helper()
	if addr == "" {
		port, err := devenv.FreePort()
		if err != nil {
			s.T.Fatal(err)
		}
		addr = "127.0.0.1:" + strconv.Itoa(port)
	}
	env = append([]string{"HERALD_HTTP_ADDR=" + addr}, env...)
	p := s.StartBinary(bin, "api", env...)
	p.BaseURL = "http://" + addr
	s.waitHealthy(p.BaseURL, time.Minute)
	return p
}

// StartWith runs `herald <subcommand>` with extra HERALD_* variables (name=value, winning
// over the stack's); it does not wait for an api process to answer (StartAPI does).
func (s *Stack) StartWith(subcommand string, env ...string) *Proc {
	s.T.Helper()
	return s.StartBinary(Binary(s.T), subcommand, env...)
}

// StartBinary is StartWith with another herald binary, such as a previous release's.
func (s *Stack) StartBinary(bin, subcommand string, env ...string) *Proc {
	s.T.Helper()
	p := &Proc{Name: subcommand, t: s.T, bin: bin, args: []string{subcommand}, env: append(s.environ(), env...), log: &Buffer{}}
	p.start()
	s.T.Cleanup(p.Kill)
	return p
}

func (p *Proc) start() {
	p.t.Helper()
	cmd := exec.Command(p.bin, p.args...)
	cmd.Env = p.env
	fmt.Fprintf(p.log, "--- start %s\n", time.Now().Format(time.RFC3339Nano))
	cmd.Stdout, cmd.Stderr = p.log, p.log
	// Pdeathsig: the child dies with the test process, so a crashed test leaves nothing.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		p.t.Fatalf("start herald %s: %v", p.Name, err)
	}
	done := make(chan struct{})
	p.mu.Lock()
	p.cmd, p.done, p.err = cmd, done, nil
	p.mu.Unlock()
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(done)
	}()
}

// Kill ends the process at once with SIGKILL, as a crash or an OOM kill would.
func (p *Proc) Kill() {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// Terminate sends SIGTERM and waits for the process to exit, returning how long it took
// and its exit error (nil for status 0). It gives up with SIGKILL after limit.
func (p *Proc) Terminate(limit time.Duration) (time.Duration, error) {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	start := time.Now()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(limit):
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
		return time.Since(start), fmt.Errorf("herald %s did not exit within %s of SIGTERM", p.Name, limit)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Since(start), p.err
}

// Restart starts the process again after it ended.
func (p *Proc) Restart() {
	p.t.Helper()
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	select {
	case <-done:
	default:
		p.t.Fatalf("restart of herald %s, which still runs", p.Name)
	}
	p.start()
}

// Exited reports whether the process has ended.
func (p *Proc) Exited() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Pid is the process id of the current run (0 before it started). Temporal names a worker
// "<pid>@<host>@" unless told otherwise, which tells which process runs an activity.
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Log is everything the process (and its earlier runs) wrote.
func (p *Proc) Log() string { return p.log.String() }

// WaitHealthy waits until the API answers /v1/health with any status.
func (s *Stack) WaitHealthy(limit time.Duration) {
	s.T.Helper()
	s.waitHealthy(s.BaseURL, limit)
}

func (s *Stack) waitHealthy(base string, limit time.Duration) {
	s.T.Helper()
	deadline := time.Now().Add(limit)
	c := &http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		res, err := c.Get(base + "/v1/health")
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.T.Fatalf("herald api did not answer at %s within %s", base, limit)
}

// Count runs a count query on the test database.
func (s *Stack) Count(q string, args ...any) int {
	s.T.Helper()
	var n int
	if err := s.Local.DB.Pool.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		s.T.Fatalf("%s: %v", q, err)
	}
	return n
}

// Eventually polls cond every 100 ms until it holds, failing the test after limit.
func (s *Stack) Eventually(limit time.Duration, what string, cond func() bool) time.Duration {
	s.T.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			s.T.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start)
}

// Buffer is a bytes.Buffer safe for concurrent writes (a child's stdout and stderr, a
// stack's log lines) while a test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}
