// Command temporal-cluster runs a command against a Temporal server with Postgres
// persistence (`make test-cluster`): it sets up the schema on scratch databases with the
// server's own SQL tool, starts the server, runs the command with HERALD_TEST_TEMPORAL_ADDRESS
// (the tests) and HERALD_CLUSTER_ADDRESS (the benchmark) set to its frontend, then stops it.
// The server runs with the dynamic config docs/deployment.md asks production servers for
// (priority and fairness, eager activities, eager start, one partition per task queue);
// -dynamic-config replaces it.
//
// With -tls the frontend requires mutual TLS (`make test-cluster-tls`): the run makes a CA,
// the frontend's certificate and client certificates with crypto/x509, checks that a
// client without a certificate is refused, and gives the command the
// HERALD_TEMPORAL_TLS_CA_FILE, _CERT_FILE, _KEY_FILE and _SERVER_NAME of a Herald client.
//
//	temporal-cluster -bin bin -schema DIR -- make test-scale
//	temporal-cluster -tls -bin bin -schema DIR -- make test-scale
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/devenv"
	"github.com/heraldhq/herald/internal/testkit/temporalcluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code, err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "temporal-cluster:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(ctx context.Context) (int, error) {
	bin := flag.String("bin", "bin", "directory with temporal-server and temporal-sql-tool (go.temporal.io/server/cmd/server and cmd/tools/sql)")
	schema := flag.String("schema", "", "the server module's schema/postgresql/v12 folder")
	pg := flag.String("postgres", "", "Postgres superuser URL for the scratch databases (default: HERALD_DATABASE_URL or Herald's default)")
	dir := flag.String("dir", filepath.Join(".data", "temporal-cluster"), "folder for the generated configuration and the server log")
	keep := flag.Bool("keep", false, "keep the scratch databases afterwards")
	useTLS := flag.Bool("tls", false, "make the frontend require mutual TLS, with certificates made for the run")
	dynamic := flag.String("dynamic-config", strings.Join(temporalcluster.RecommendedDynamicConfig, ","),
		"the server's dynamic config, key=value,… (default: what docs/deployment.md asks production servers for: priority and fairness, eager activities, eager start, one partition per task queue; none: the server's defaults)")
	flag.Parse()
	if flag.NArg() == 0 {
		return 2, fmt.Errorf("no command to run: temporal-cluster [flags] -- COMMAND [ARGS]")
	}
	if *pg == "" {
		*pg = os.Getenv("HERALD_DATABASE_URL")
		if *pg == "" {
			*pg = config.Defaults().DatabaseURL
		}
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return 1, err
	}
	logPath := filepath.Join(*dir, "server.log")
	log, err := os.Create(logPath)
	if err != nil {
		return 1, err
	}
	defer log.Close()
	var certs *temporalcluster.TLS
	var env []string
	if *useTLS {
		if certs, env, err = makeCertificates(filepath.Join(*dir, "tls")); err != nil {
			return 1, err
		}
	}
	fmt.Fprintf(os.Stderr, "temporal-cluster: setting up the schema and starting the server (log: %s) ...\n", logPath)
	c, err := temporalcluster.Start(ctx, temporalcluster.Options{
		Server: filepath.Join(*bin, "temporal-server"), SQLTool: filepath.Join(*bin, "temporal-sql-tool"), SchemaDir: *schema,
		PostgresURL: *pg, Dir: *dir, Output: log, TLS: certs, DynamicConfig: devenv.DynamicConfigFrom(*dynamic),
	})
	if err != nil {
		return 1, fmt.Errorf("%w (log: %s)", err, logPath)
	}
	defer func() {
		c.Stop()
		if !*keep {
			if err := c.DropDatabases(context.Background()); err != nil {
				fmt.Fprintln(os.Stderr, "temporal-cluster: dropping the scratch databases:", err)
			}
		}
	}()
	fmt.Fprintf(os.Stderr, "temporal-cluster: Temporal (Postgres persistence, databases %v, dynamic config %v) answers at %s\n", c.Databases, devenv.DynamicConfigFrom(*dynamic), c.Address)
	if certs != nil {
		if err := checkMutualTLS(ctx, c.Address, env); err != nil {
			return 1, err
		}
		fmt.Fprintf(os.Stderr, "temporal-cluster: the frontend requires mutual TLS (a client without a certificate is refused); the command connects with %v\n", env)
	}
	cmd := exec.CommandContext(ctx, flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(append(os.Environ(), "HERALD_TEST_TEMPORAL_ADDRESS="+c.Address, "HERALD_CLUSTER_ADDRESS="+c.Address), env...)
	if err := cmd.Run(); err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode(), nil
		}
		return 1, err
	}
	return 0, nil
}
