package devenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// TemporalOptions choose how the dev server runs.
type TemporalOptions struct {
	// CLI is the temporal binary.
	CLI string
	// Address is host:port for the frontend; empty picks a free port on 127.0.0.1.
	Address string
	// UIPort serves the Web UI; 0 runs headless.
	UIPort int
	// UICodecEndpoint is the codec server the Web UI decodes payloads with (the browser
	// calls <endpoint>/decode); empty for none.
	UICodecEndpoint string
	// DBFile keeps state in a SQLite file (WAL, no fsync); empty keeps it in memory.
	DBFile string
	// Namespace to wait for.
	Namespace string
	// Output receives the server's log.
	Output io.Writer
	// DynamicConfig are the server's dynamic config values (key=value, values in YAML);
	// nil means DevDynamicConfig.
	DynamicConfig []string
}

// DevDynamicConfig is the dynamic config every dev server runs with unless told otherwise
// (issue 28): eager activities, so a run's DeliverBatch goes straight to the worker that
// completed its workflow task when that worker has a free slot, without a trip through the
// queue. The priority-aware matcher with fairness (matching.useNewMatcher,
// matching.enableFairness), which honours the relay's fairness key (app-<id>) and
// priority key inside every task queue, is experimental in the pinned server (1.29) and
// opt-in: with it on by default, one CI rehearsal saw the shared dev server stop
// dispatching every task queue (docs/decisions.md, "Fairness between apps").
// HERALD_DEV_TEMPORAL_DYNAMIC_CONFIG (comma-separated key=value, or "none") replaces it.
var DevDynamicConfig = []string{"system.enableActivityEagerExecution=true"}

// dynamicConfig is o's dynamic config: o.DynamicConfig, else the environment's
// HERALD_DEV_TEMPORAL_DYNAMIC_CONFIG (see DynamicConfigFrom).
func (o TemporalOptions) dynamicConfig() []string {
	if o.DynamicConfig != nil {
		return o.DynamicConfig
	}
	return DynamicConfigFrom(os.Getenv("HERALD_DEV_TEMPORAL_DYNAMIC_CONFIG"))
}

// DynamicConfigFrom reads a dynamic config setting: empty means DevDynamicConfig, "none"
// the server's defaults (an empty, non-nil list), anything else comma-separated
// key=value pairs.
func DynamicConfigFrom(v string) []string {
	switch v = strings.TrimSpace(v); v {
	case "":
		return DevDynamicConfig
	case "none":
		return []string{}
	}
	var out []string
	for _, kv := range strings.Split(v, ",") {
		if kv = strings.TrimSpace(kv); kv != "" {
			out = append(out, kv)
		}
	}
	return out
}

// Temporal is a running dev server.
type Temporal struct {
	Address string
	UIURL   string
	cmd     *exec.Cmd
	done    chan struct{}
}

// FindTemporalCLI returns the first temporal binary among: the configured path, bin/temporal
// next to the running executable, ./bin/temporal, and $PATH.
func FindTemporalCLI(configured string) (string, error) {
	if configured != "" {
		if _, err := os.Stat(configured); err != nil {
			return "", fmt.Errorf("HERALD_TEMPORAL_CLI=%s: %w", configured, err)
		}
		return configured, nil
	}
	var candidates []string
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(exe), "temporal"))
	}
	candidates = append(candidates, filepath.Join("bin", "temporal"))
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, nil
		}
	}
	if p, err := exec.LookPath("temporal"); err == nil {
		return p, nil
	}
	return "", errors.New("no Temporal server answers and no temporal CLI was found: run `make bin/temporal` (or set HERALD_TEMPORAL_CLI, or HERALD_TEMPORAL_ADDRESS to a running server)")
}

// StartTemporal starts a dev server and waits until its namespace answers.
func StartTemporal(ctx context.Context, o TemporalOptions) (*Temporal, error) {
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	host, port := "127.0.0.1", 0
	if o.Address != "" {
		h, p, err := net.SplitHostPort(o.Address)
		if err != nil {
			return nil, fmt.Errorf("temporal address %q: %w", o.Address, err)
		}
		host = h
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("temporal address %q: bad port", o.Address)
		}
	}
	if port != 0 {
		return startTemporal(ctx, o, host, port)
	}
	// A port FreePort found free may be taken before the server binds it (tests start
	// servers and listeners side by side): a server that exits during start-up is started
	// again on another port, a few times.
	var err error
	for range freePortTries {
		if port, err = freePort(); err != nil {
			return nil, err
		}
		var t *Temporal
		if t, err = startTemporal(ctx, o, host, port); !errors.Is(err, errExited) {
			return t, err
		}
	}
	return nil, err
}

// freePortTries bounds the starts of a dev server on a port of its own choosing.
const freePortTries = 3

// freePort is FreePort (a test takes the first port itself).
var freePort = FreePort

// errExited is the dev server exiting before it answered.
var errExited = errors.New("temporal dev server exited during start-up")

// startTemporal starts a dev server on host:port and waits until its namespace answers.
func startTemporal(ctx context.Context, o TemporalOptions, host string, port int) (*Temporal, error) {
	args := []string{"server", "start-dev", "--ip", host, "--port", strconv.Itoa(port), "--log-level", "error"}
	if o.Namespace != "default" {
		args = append(args, "--namespace", o.Namespace)
	}
	for _, kv := range o.dynamicConfig() {
		args = append(args, "--dynamic-config-value", kv)
	}
	if o.UIPort > 0 {
		args = append(args, "--ui-port", strconv.Itoa(o.UIPort))
		if o.UICodecEndpoint != "" {
			args = append(args, "--ui-codec-endpoint", o.UICodecEndpoint)
		}
	} else {
		args = append(args, "--headless")
	}
	if o.DBFile != "" {
		if err := os.MkdirAll(filepath.Dir(o.DBFile), 0o755); err != nil {
			return nil, err
		}
		args = append(args, "--db-filename", o.DBFile,
			"--sqlite-pragma", "journal_mode=wal", "--sqlite-pragma", "synchronous=off")
	}
	cmd := exec.Command(o.CLI, args...)
	// Pdeathsig: the server dies with its parent, so a crashed test leaves nothing behind.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if o.Output != nil {
		cmd.Stdout, cmd.Stderr = o.Output, o.Output
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", o.CLI, err)
	}
	t := &Temporal{Address: net.JoinHostPort(host, strconv.Itoa(port)), cmd: cmd, done: make(chan struct{})}
	if o.UIPort > 0 {
		t.UIURL = "http://" + net.JoinHostPort(host, strconv.Itoa(o.UIPort))
	}
	go func() { _ = cmd.Wait(); close(t.done) }()
	if err := t.waitReady(ctx, o.Namespace, 90*time.Second); err != nil {
		t.Stop()
		return nil, err
	}
	return t, nil
}

func (t *Temporal) waitReady(ctx context.Context, namespace string, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var last error
	for {
		select {
		case <-t.done:
			return fmt.Errorf("%w (is port %s taken?)", errExited, t.Address)
		case <-ctx.Done():
			return fmt.Errorf("temporal dev server at %s not ready after %s: %v", t.Address, limit, last)
		case <-time.After(200 * time.Millisecond):
		}
		if !Answers(ctx, t.Address) {
			continue
		}
		c, err := client.Dial(client.Options{HostPort: t.Address, Namespace: namespace, Logger: quietLogger{}})
		if err != nil {
			last = err
			continue
		}
		_, err = c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
		c.Close()
		if err == nil {
			return nil
		}
		last = err
	}
}

// Existing is a server that runs elsewhere (a cluster): Stop and Kill leave it alone.
func Existing(address string) *Temporal { return &Temporal{Address: address} }

// Stop ends the server and waits for it (SIGTERM, then SIGKILL after 10 s).
func (t *Temporal) Stop() {
	if t == nil || t.cmd == nil || t.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-t.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
		<-t.done
	}
}

// Kill ends the server at once (for fault tests).
func (t *Temporal) Kill() {
	if t.cmd == nil {
		return
	}
	_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	<-t.done
}

// quietLogger silences the SDK while polling for readiness.
type quietLogger struct{}

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (quietLogger) Warn(string, ...any)  {}
func (quietLogger) Error(string, ...any) {}
