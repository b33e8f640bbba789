package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/devenv"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// env is the running system under test.
type env struct {
	dbURL, baseURL string
	creds          apps.Credentials
	api, worker    *exec.Cmd
	temporal       *devenv.Temporal
	db             *db.DB
	logDir         string
	cleanup        []func()
}

func (e *env) stop() {
	for i := len(e.cleanup) - 1; i >= 0; i-- {
		e.cleanup[i]()
	}
}

func startEnv(ctx context.Context, o options) (e *env, err error) {
	e = &env{}
	defer func() {
		if err != nil {
			e.stop()
		}
	}()
	if e.logDir, err = os.MkdirTemp("", "realtimebench-"); err != nil {
		return nil, err
	}
	name := "herald_bench_" + secrets.HexToken(4)
	admin, err := pgx.Connect(ctx, o.serverURL)
	if err != nil {
		return nil, fmt.Errorf("connect to Postgres at %s: %w", o.serverURL, err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return nil, err
	}
	e.cleanup = append(e.cleanup, func() {
		c, err := pgx.Connect(context.Background(), o.serverURL)
		if err == nil {
			_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(context.Background())
		}
	})
	e.dbURL = db.WithDatabase(o.serverURL, name)

	fmt.Fprintln(os.Stderr, "starting the Temporal dev server...")
	tlog, _ := os.Create(filepath.Join(e.logDir, "temporal.log"))
	if e.temporal, err = devenv.StartTemporal(ctx, devenv.TemporalOptions{CLI: o.temporalCLI, Output: tlog}); err != nil {
		return nil, err
	}
	e.cleanup = append(e.cleanup, e.temporal.Stop)

	port, err := devenv.FreePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	e.baseURL = "http://" + addr
	vars := []string{
		"HERALD_DATABASE_URL=" + e.dbURL, "HERALD_TEMPORAL_ADDRESS=" + e.temporal.Address,
		"HERALD_SECRET_KEY=" + secrets.Token(32), "HERALD_HTTP_ADDR=" + addr, "HERALD_LOG_LEVEL=warn",
		"HERALD_TASK_QUEUE=bench",
	}
	if out, err := herald(o, vars, "migrate").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("herald migrate: %v: %s", err, out)
	}
	out, err := herald(o, vars, "apps", "create", "--name", "bench").Output()
	if err != nil || json.Unmarshal(out, &e.creds) != nil {
		return nil, fmt.Errorf("herald apps create: %v: %s", err, out)
	}
	if e.worker, err = e.start(o, vars, "worker"); err != nil {
		return nil, err
	}
	if e.api, err = e.start(o, vars, "api"); err != nil {
		return nil, err
	}
	if err := waitHealthy(ctx, e.baseURL); err != nil {
		return nil, fmt.Errorf("%w (logs in %s)", err, e.logDir)
	}
	if e.db, err = db.Open(ctx, e.dbURL, db.PoolSize{MaxConns: 4}); err != nil {
		return nil, err
	}
	e.cleanup = append(e.cleanup, e.db.Close)
	return e, nil
}

func herald(o options, vars []string, args ...string) *exec.Cmd {
	cmd := exec.Command(o.herald, args...)
	cmd.Env = append(os.Environ(), vars...)
	return cmd
}

// start runs a herald subcommand in the background, logging to the log directory.
func (e *env) start(o options, vars []string, sub string) (*exec.Cmd, error) {
	logf, err := os.Create(filepath.Join(e.logDir, sub+".log"))
	if err != nil {
		return nil, err
	}
	cmd := herald(o, vars, sub)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e.cleanup = append(e.cleanup, func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
		}
		logf.Close()
	})
	return cmd, nil
}

func waitHealthy(ctx context.Context, base string) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/health", nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("the API at %s did not become healthy", base)
}

// send posts a notification to one user.
func (e *env) send(ctx context.Context, user string) error {
	body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "bench"}, "sendTo": map[string]any{"recipients": []string{user}}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.baseURL+"/v3/notifications", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-SERVICE-API-KEY", e.creds.APIKey)
	req.Header.Set("X-SERVICE-API-SECRET", e.creds.APISecret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != 202 {
		return fmt.Errorf("send: status %d", res.StatusCode)
	}
	return nil
}

// rss reads a process's resident set size in bytes.
func rss(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}
