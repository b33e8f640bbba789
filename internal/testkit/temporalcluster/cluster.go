// Package temporalcluster starts a Temporal server with Postgres persistence for
// `make test-cluster`: the pinned server and its SQL tool (both built from the Go module
// proxy into bin/), the schema set up by that tool on scratch databases, one process running
// every service. It is what a production deployment runs, minus the replicas, so the scale
// test and the delivery benchmark can run against it instead of the dev server (SQLite).
package temporalcluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/template"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/platform/devenv"
)

// Options say where the binaries, the schema and Postgres are.
type Options struct {
	// Server and SQLTool are the binaries of go.temporal.io/server/cmd/server and
	// cmd/tools/sql.
	Server, SQLTool string
	// SchemaDir is the server module's schema/postgresql/v12 folder (it holds temporal/
	// and visibility/ with their versioned migrations).
	SchemaDir string
	// PostgresURL is a superuser connection to the Postgres server that holds the scratch
	// databases (postgres://user@host:port/...).
	PostgresURL string
	// Dir holds the generated configuration.
	Dir string
	// Namespace is registered once the server answers ("default" when empty).
	Namespace string
	// Output receives the server's and the tool's logs.
	Output io.Writer
	// DynamicConfig are dynamic config values (key=value, values in YAML) added to the
	// raised rate limits every cluster runs with: RecommendedDynamicConfig is what
	// docs/deployment.md asks production servers for.
	DynamicConfig []string
	// TLS, when set, makes the frontend require mutual TLS: it presents the server
	// certificate and accepts only clients with a certificate of the CA (the system worker
	// presents its own). The namespace is registered through it.
	TLS *TLS
}

// TLS are the PEM files of a frontend that requires mutual TLS.
type TLS struct {
	// CA signs every certificate below.
	CA string
	// ServerCert and ServerKey are the frontend's; ServerName is a name the certificate
	// carries, which clients verify.
	ServerCert, ServerKey, ServerName string
	// WorkerCert and WorkerKey are the client certificate of the server's own system
	// worker; ClientCert and ClientKey one for the test's clients (namespace registration).
	WorkerCert, WorkerKey, ClientCert, ClientKey string
}

// Cluster is a running server.
type Cluster struct {
	// Address is the frontend's host:port.
	Address string
	// Databases are the scratch databases (history and visibility).
	Databases []string
	cmd       *exec.Cmd
	done      chan struct{}
	opts      Options
}

// Start creates two scratch databases, sets up their schema with the SQL tool, starts the
// server on free ports and registers the namespace.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if o.Output == nil {
		o.Output = io.Discard
	}
	for _, p := range []string{o.Server, o.SQLTool, filepath.Join(o.SchemaDir, "temporal", "versioned"), filepath.Join(o.SchemaDir, "visibility", "versioned")} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%w (run `make test-cluster`, which builds the server and its SQL tool into bin/)", err)
		}
	}
	pg, err := url.Parse(o.PostgresURL)
	if err != nil {
		return nil, fmt.Errorf("postgres URL: %w", err)
	}
	host, port := pg.Hostname(), pg.Port()
	if port == "" {
		port = "5432"
	}
	user := pg.User.Username()
	if user == "" {
		user = "postgres"
	}
	password, _ := pg.User.Password()
	stamp := time.Now().UnixNano()
	c := &Cluster{opts: o, Databases: []string{fmt.Sprintf("temporal_cluster_%d", stamp), fmt.Sprintf("temporal_cluster_%d_visibility", stamp)}}
	for i, name := range c.Databases {
		schema := filepath.Join(o.SchemaDir, "temporal", "versioned")
		if i == 1 {
			schema = filepath.Join(o.SchemaDir, "visibility", "versioned")
		}
		base := []string{"--plugin", "postgres12", "--ep", host, "--port", port, "--user", user, "--password", password, "--db", name}
		for _, step := range [][]string{{"create-database"}, {"setup-schema", "-v", "0.0"}, {"update-schema", "-d", schema}} {
			cmd := exec.CommandContext(ctx, o.SQLTool, append(base, step...)...)
			cmd.Stdout, cmd.Stderr = o.Output, o.Output
			if err := cmd.Run(); err != nil {
				return nil, fmt.Errorf("%s %s on %s: %w", filepath.Base(o.SQLTool), step[0], name, err)
			}
		}
	}

	ports := map[string]int{}
	for _, k := range []string{"frontend", "frontendHTTP", "history", "matching", "worker", "mFrontend", "mHistory", "mMatching", "mWorker", "pprof", "metrics"} {
		p, err := lowFreePort(ports)
		if err != nil {
			return nil, err
		}
		ports[k] = p
	}
	if err := os.MkdirAll(filepath.Join(o.Dir, "config", "dynamicconfig"), 0o755); err != nil {
		return nil, err
	}
	var cfg strings.Builder
	if err := configTemplate.Execute(&cfg, map[string]any{
		"Host": host, "Port": port, "User": user, "Password": password,
		"DB": c.Databases[0], "VisibilityDB": c.Databases[1], "Ports": ports,
		"DynamicConfig": filepath.Join(o.Dir, "config", "dynamicconfig", "cluster.yaml"),
		"TLS":           o.TLS,
	}); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(o.Dir, "config", "cluster.yaml"), []byte(cfg.String()), 0o644); err != nil {
		return nil, err
	}
	dyn, err := renderDynamicConfig(o.DynamicConfig)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(o.Dir, "config", "dynamicconfig", "cluster.yaml"), []byte(dyn), 0o644); err != nil {
		return nil, err
	}
	c.Address = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports["frontend"]))
	c.cmd = exec.Command(o.Server, "--root", o.Dir, "--config", "config", "--env", "cluster", "--allow-no-auth", "start")
	c.cmd.Stdout, c.cmd.Stderr = o.Output, o.Output
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := c.cmd.Start(); err != nil {
		return nil, err
	}
	c.done = make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(c.done) }()
	if err := c.register(ctx, 3*time.Minute); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

// lowFreePort is a free port below 32768: the server stores membership ports in a
// smallint column, so the kernel's ephemeral ports (32768 and up) make it exit.
func lowFreePort(taken map[string]int) (int, error) {
	used := map[int]bool{}
	for _, p := range taken {
		used[p] = true
	}
	for range 200 {
		p := 20000 + rand.IntN(12000)
		if used[p] {
			continue
		}
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue
		}
		ln.Close()
		return p, nil
	}
	return 0, errors.New("no free port between 20000 and 32000")
}

// register waits for the frontend and registers the namespace (a fresh cluster has none).
func (c *Cluster) register(ctx context.Context, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var last error
	for {
		select {
		case <-c.done:
			return errors.New("the Temporal server exited during start-up (see its log)")
		case <-ctx.Done():
			return fmt.Errorf("the Temporal server at %s is not ready after %s: %v", c.Address, limit, last)
		case <-time.After(500 * time.Millisecond):
		}
		if !devenv.Answers(ctx, c.Address) {
			continue
		}
		ns, err := client.NewNamespaceClient(c.ClientOptions())
		if err != nil {
			last = err
			continue
		}
		err = ns.Register(ctx, &workflowservice.RegisterNamespaceRequest{
			Namespace: c.opts.Namespace, WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour),
		})
		if err != nil && !strings.Contains(err.Error(), "already") {
			ns.Close()
			last = err
			continue
		}
		_, err = ns.Describe(ctx, c.opts.Namespace)
		ns.Close()
		if err == nil {
			return nil
		}
		last = err
	}
}

// ClientOptions are the options of a client of the cluster: its address and, with TLS,
// the CA, the server name and the test client's certificate.
func (c *Cluster) ClientOptions() client.Options {
	o := client.Options{HostPort: c.Address}
	if t := c.opts.TLS; t != nil {
		cfg, err := t.ClientConfig()
		if err == nil {
			o.ConnectionOptions.TLS = cfg
		}
	}
	return o
}

// ClientConfig is the TLS configuration of a client of the cluster.
func (t *TLS) ClientConfig() (*tls.Config, error) {
	caPEM, err := os.ReadFile(t.CA)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("%s holds no certificate", t.CA)
	}
	cert, err := tls.LoadX509KeyPair(t.ClientCert, t.ClientKey)
	if err != nil {
		return nil, err
	}
	return &tls.Config{RootCAs: pool, ServerName: t.ServerName, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// DropDatabases removes the scratch databases (after Stop).
func (c *Cluster) DropDatabases(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, db.WithDatabase(c.opts.PostgresURL, "postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, name := range c.Databases {
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			return err
		}
	}
	return nil
}

// Stop ends the server (SIGTERM, then SIGKILL after 15 s). The scratch databases stay for
// inspection; DropDatabases removes them.
func (c *Cluster) Stop() {
	if c == nil || c.cmd == nil || c.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-c.done
	}
}

// dynamicConfig raises the frontend's rate limits above the defaults, which are sized for a
// shared cluster and would throttle a benchmark on one box.
const dynamicConfig = `frontend.rps:
  - value: 20000
frontend.namespaceRPS:
  - value: 20000
history.rps:
  - value: 20000
matching.rps:
  - value: 20000
limit.maxIDLength:
  - value: 255
system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
`

// RecommendedDynamicConfig is the dynamic config docs/deployment.md ("Temporal server
// settings for isolation") asks production servers for (issue 28): the priority-aware
// matcher with fairness, so the relay's priority and fairness keys (app-<id>) are honoured
// inside every task queue; eager activities; eager workflow start (already the default);
// and one partition per task queue, the size for a server with one matching host (the
// server's default, 4, spreads a queue's tasks and polls over partitions that forward to
// each other; docs/deployment.md says when to raise it).
var RecommendedDynamicConfig = []string{
	"matching.useNewMatcher=true",
	"matching.enableFairness=true",
	"system.enableActivityEagerExecution=true",
	"system.enableEagerWorkflowStart=true",
	"matching.numTaskqueueReadPartitions=1",
	"matching.numTaskqueueWritePartitions=1",
}

// renderDynamicConfig is the dynamic config file: the raised limits, then each key=value
// of extra (a key the limits set already is refused).
func renderDynamicConfig(extra []string) (string, error) {
	var b strings.Builder
	b.WriteString(dynamicConfig)
	seen := map[string]bool{}
	for _, line := range strings.Split(dynamicConfig, "\n") {
		if k, ok := strings.CutSuffix(line, ":"); ok && !strings.HasPrefix(line, " ") {
			seen[k] = true
		}
	}
	for _, kv := range extra {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return "", fmt.Errorf("dynamic config %q: want key=value", kv)
		}
		if seen[k] {
			return "", fmt.Errorf("dynamic config %q: %s is set twice", kv, k)
		}
		seen[k] = true
		fmt.Fprintf(&b, "%s:\n  - value: %s\n", k, v)
	}
	return b.String(), nil
}

var configTemplate = template.Must(template.New("cluster").Parse(`log:
  stdout: true
  level: warn
persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: 4
  datastores:
    postgres-default:
      sql:
        pluginName: "postgres12"
        databaseName: "{{.DB}}"
        connectAddr: "{{.Host}}:{{.Port}}"
        connectProtocol: "tcp"
        user: "{{.User}}"
        password: "{{.Password}}"
        maxConns: 20
        maxIdleConns: 20
        maxConnLifetime: "1h"
    postgres-visibility:
      sql:
        pluginName: "postgres12"
        databaseName: "{{.VisibilityDB}}"
        connectAddr: "{{.Host}}:{{.Port}}"
        connectProtocol: "tcp"
        user: "{{.User}}"
        password: "{{.Password}}"
        maxConns: 4
        maxIdleConns: 4
        maxConnLifetime: "1h"
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  pprof:
    port: {{.Ports.pprof}}
{{- with .TLS}}
  tls:
    refreshInterval: 1m
    frontend:
      server:
        certFile: "{{.ServerCert}}"
        keyFile: "{{.ServerKey}}"
        requireClientAuth: true
        clientCaFiles: ["{{.CA}}"]
      client:
        serverName: "{{.ServerName}}"
        rootCaFiles: ["{{.CA}}"]
    systemWorker:
      certFile: "{{.WorkerCert}}"
      keyFile: "{{.WorkerKey}}"
      client:
        serverName: "{{.ServerName}}"
        rootCaFiles: ["{{.CA}}"]
{{- end}}
  metrics:
    prometheus:
      framework: "tally"
      timerType: "histogram"
      listenAddress: "127.0.0.1:{{.Ports.metrics}}"
services:
  frontend:
    rpc:
      grpcPort: {{.Ports.frontend}}
      membershipPort: {{.Ports.mFrontend}}
      bindOnLocalHost: true
      httpPort: {{.Ports.frontendHTTP}}
  matching:
    rpc:
      grpcPort: {{.Ports.matching}}
      membershipPort: {{.Ports.mMatching}}
      bindOnLocalHost: true
  history:
    rpc:
      grpcPort: {{.Ports.history}}
      membershipPort: {{.Ports.mHistory}}
      bindOnLocalHost: true
  worker:
    rpc:
      grpcPort: {{.Ports.worker}}
      membershipPort: {{.Ports.mWorker}}
      bindOnLocalHost: true
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:{{.Ports.frontend}}"
dcRedirectionPolicy:
  policy: "noop"
dynamicConfigClient:
  filepath: "{{.DynamicConfig}}"
  pollInterval: "10s"
`))
