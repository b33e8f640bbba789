// Package stacktest runs a real Herald stack inside a test: a fresh Postgres database, the
// HTTP API on a free port, and optionally the worker and relay against a Temporal dev
// server (one per test process, started from the pinned CLI). Tests drive it over HTTP.
package stacktest

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/devenv"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/stack"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// Options choose what runs.
type Options struct {
	// Temporal runs the worker and the relay against the shared Temporal dev server.
	Temporal bool
	// TemporalAddress runs the worker and relay against this server instead of the shared
	// one (fault tests that stop and start their own).
	TemporalAddress string
	// Configure adjusts the configuration before the stack opens.
	Configure func(*config.Config)
	// Log, when set, receives every log line of the stack (debug level and up), so a test
	// can search what was logged.
	Log io.Writer
}

// Env is a running stack.
type Env struct {
	T       testing.TB
	Stack   *stack.Stack
	Cfg     config.Config
	BaseURL string
	// App is an app created for the test.
	App apps.Credentials
	// OnResponse, when set, sees every exchange of Do (a test searching all answers).
	OnResponse func(method, path string, res *Response)
	// OutOfContract turns off checking exchanges against the OpenAPI documents for the
	// whole environment (suites that send what no document describes, such as fuzzers).
	OutOfContract bool
	ctx           context.Context
}

// New starts a stack for the test; everything stops when the test ends.
func New(t testing.TB, opts Options) *Env {
	t.Helper()
	cfg := config.Defaults()
	cfg.DatabaseURL = dbtest.URL(t)
	cfg.SecretKey = secrets.Token(32)
	// /metrics on the API behind a bearer token (e.MetricsHeaders), as an operator may set.
	cfg.Ops.MetricsToken = secrets.Token(32)
	cfg.TaskQueue = "herald-test-" + secrets.HexToken(4)
	cfg.RelayPollInterval = 200 * time.Millisecond
	cfg.ShutdownTimeout = 5 * time.Second
	cfg.DBMaxConns = 16
	// Many test stacks share one database server at once: none keeps idle connections
	// open beyond those its tests used.
	cfg.DBMinIdleConns = 0
	// Fake providers and webhook receivers listen on loopback.
	cfg.PrivateHosts = []string{"127.0.0.1", "localhost"}
	// Every test client is 127.0.0.1: the per-address budgets of sign-ups, resets and
	// invitations are off unless a test sets them (the per-email budgets stay).
	cfg.Console.SignUpLimitPerIP, cfg.Console.PasswordResetLimitPerIP, cfg.Console.InvitationLimitPerIP = 0, 0, 0
	switch {
	case opts.TemporalAddress != "":
		cfg.TemporalAddress = opts.TemporalAddress
		opts.Temporal = true
	case opts.Temporal:
		cfg.TemporalAddress = SharedTemporal(t).Address
		cfg.TemporalClient = TemporalClient()
	default:
		// Nothing answers here: the API must accept sends without Temporal.
		cfg.TemporalAddress = "127.0.0.1:1"
	}
	if opts.Configure != nil {
		opts.Configure(&cfg)
	}
	log := testLogger(t)
	if opts.Log != nil {
		log = slog.New(slog.NewTextHandler(opts.Log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := stack.Open(ctx, cfg, log)
	if err != nil {
		cancel()
		t.Fatalf("open stack: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	run := func(name string, f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(ctx); err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v", name, err)
			}
		}()
	}
	run("http", func(ctx context.Context) error { return s.ServeHTTP(ctx, ln) })
	if opts.Temporal {
		run("relay", s.RunRelay)
		run("worker", s.RunWorker)
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		s.Close()
	})
	e := &Env{T: t, Stack: s, Cfg: cfg, BaseURL: "http://" + ln.Addr().String(), ctx: ctx}
	e.App = e.NewApp("test app")
	return e
}

// NewApp creates another app in the stack.
func (e *Env) NewApp(name string) apps.Credentials {
	e.T.Helper()
	creds, err := e.Stack.Apps.Create(context.Background(), name)
	if err != nil {
		e.T.Fatalf("create app: %v", err)
	}
	return creds
}

// testLogger logs to the test output when -v is given and HERALD_TEST_LOG is set, and
// nowhere otherwise, so failures stay readable.
func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("HERALD_TEST_LOG") == "" {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

var (
	temporalOnce sync.Once
	temporal     *devenv.Temporal
	temporalErr  error
)

// SharedTemporal returns the test process's Temporal dev server, starting it (in memory,
// headless, on free ports) on first use, or the server at HERALD_TEST_TEMPORAL_ADDRESS
// when that is set (`make test-cluster`). Without the CLI the test is skipped, unless
// HERALD_REQUIRE_INTEGRATION is set (as `make test` does), when it fails.
func SharedTemporal(t testing.TB) *devenv.Temporal {
	t.Helper()
	temporalOnce.Do(func() {
		// `make test-cluster` points the tests at a Temporal cluster it started.
		if addr := os.Getenv("HERALD_TEST_TEMPORAL_ADDRESS"); addr != "" {
			temporal = devenv.Existing(addr)
			return
		}
		cli, err := findCLI()
		if err != nil {
			temporalErr = err
			return
		}
		temporal, temporalErr = devenv.StartTemporal(context.Background(), devenv.TemporalOptions{CLI: cli, Output: io.Discard})
	})
	if temporalErr != nil {
		if os.Getenv("HERALD_REQUIRE_INTEGRATION") != "" {
			t.Fatalf("Temporal dev server: %v", temporalErr)
		}
		t.Skipf("skipping: no Temporal dev server (%v); `make test` builds bin/temporal", temporalErr)
	}
	return temporal
}

// TemporalClient is how the tests connect to the shared Temporal server: when
// HERALD_TEST_TEMPORAL_ADDRESS points them at a server of their runner, with the
// HERALD_TEMPORAL_TLS_* and HERALD_TEMPORAL_API_KEY variables of the environment (`make
// test-cluster-tls` sets them for its mutual-TLS cluster); else the defaults, plaintext, as
// the dev server speaks.
func TemporalClient() config.TemporalClientConfig {
	if os.Getenv("HERALD_TEST_TEMPORAL_ADDRESS") == "" {
		return config.Defaults().TemporalClient
	}
	// Only the connection settings are taken; a problem elsewhere is not this one's.
	cfg, _ := config.Load(os.Getenv)
	return cfg.TemporalClient
}

// StartTemporal starts a private dev server for one test (stopped when it ends) at addr, or
// on a free port when addr is empty.
func StartTemporal(t testing.TB, addr string) *devenv.Temporal {
	t.Helper()
	SharedTemporal(t) // skips or fails the same way when the CLI is missing
	cli, err := findCLI()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := devenv.StartTemporal(context.Background(), devenv.TemporalOptions{CLI: cli, Address: addr, Output: io.Discard})
	if err != nil {
		t.Fatalf("temporal dev server: %v", err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// StopShared stops the shared Temporal server; call it from TestMain after m.Run.
func StopShared() {
	if temporal != nil {
		temporal.Stop()
	}
}

// Main runs a package's tests and then stops the shared servers.
func Main(m interface{ Run() int }) int {
	code := m.Run()
	StopShared()
	return code
}

// TemporalCLI is the Temporal CLI the tests use (HERALD_TEMPORAL_CLI, else bin/temporal of
// the module), for tests that read histories the way an operator does.
func TemporalCLI() (string, error) { return findCLI() }

func findCLI() (string, error) {
	if p := os.Getenv("HERALD_TEMPORAL_CLI"); p != "" {
		return p, nil
	}
	dir, _ := os.Getwd()
	for {
		p := filepath.Join(dir, "bin", "temporal")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return devenv.FindTemporalCLI("")
}
