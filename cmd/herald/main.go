// Command herald runs the Herald notification service: the API, the worker, or both with a
// local Temporal server for development, plus small admin commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	// The time-zone database, for a host or image without one: flow steps, quiet hours and
	// send windows name IANA zones, and workflow code loads them, so every worker of a build
	// must resolve the same names (the system database is still preferred when present).
	_ "time/tzdata"

	v1 "github.com/heraldhq/herald/api/v1"
	"github.com/heraldhq/herald/internal/cli"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/logctx"
)

const usage = `herald — self-hostable notification infrastructure

Usage:
  herald api                  serve the HTTP API and the outbox relay
  herald worker [--queues KINDS]
                              run the Temporal workers: every task queue, or the kinds listed
                              (orchestration,email,sms,push,chat,webhook; docs/deployment.md)
  herald dev                  API + worker + relay in one process; migrates first and starts a
                              local Temporal dev server (and Postgres) when none answers
  herald migrate              create the database if missing and apply migrations
  herald apps create --name NAME [--client ID]
                              create an app and print its credentials as JSON
  herald devdb start|stop     start (printing its URL) or stop the private Postgres cluster
                              under HERALD_DATA_DIR/pg that dev and tests use when none answers
  herald config [--markdown]   print every setting: default, current value (secrets masked),
                              whether it is set, description; --markdown: the table of
                              docs/configuration.md
  herald doctor [--json]      check the configuration, the database and its migrations, Temporal
                              (namespace, search attributes), system mail, the public URL and
                              origins, and insecure apps; OK/WARN/FAIL with the fix for each;
                              exit status 1 on any FAIL (docs/deployment.md)
  herald healthcheck [--url URL]
                              the container's health check: GET /livez on the API listener,
                              else on the metrics listener (a worker's), or --url on loopback
                              (http://127.0.0.1:8080/readyz); exit status 1 unless one answers 2xx
  herald help                 this text

Resources as code (client commands over the /v1 API with a CLI token; docs/cli.md):
%s
Configuration comes from HERALD_* environment variables; see herald config and
docs/configuration.md.
`

// errUsage marks a command-line mistake (exit status 2).
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if errors.Is(err, errUsage) || errors.Is(err, cli.ErrUsage) {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if errors.Is(err, cli.ErrFailed) {
			// The command printed why.
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "herald:", err)
		os.Exit(1)
	}
}

// run executes one subcommand.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText())
		return fmt.Errorf("%w: a subcommand is required", errUsage)
	}
	if cli.IsCommand(args) {
		// Client commands talk to a server: they need none of the server's settings.
		env := cli.StdEnv(v1.Document)
		env.Getenv, env.Stdout, env.Stderr = getenv, stdout, stderr
		return cli.Run(ctx, args, env)
	}
	if args[0] == "doctor" {
		// Before Load too: a bad setting is one finding of the report.
		return runDoctor(ctx, args[1:], getenv, stdout)
	}
	if args[0] == "healthcheck" {
		// Before Load: only the two listen addresses matter.
		return runHealthcheck(ctx, args[1:], getenv, stdout)
	}
	if args[0] == "config" {
		// Before Load: the settings are printed even when some are bad, then the problems.
		return runConfig(args[1:], getenv, stdout)
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	switch args[0] {
	case "api":
		return runAPI(ctx, cfg, log)
	case "worker":
		if err := workerFlags(&cfg, args[1:]); err != nil {
			return err
		}
		return runWorker(ctx, cfg, log)
	case "dev":
		return runDev(ctx, cfg, log, stdout)
	case "migrate":
		return runMigrate(ctx, cfg, log)
	case "apps":
		return runApps(ctx, cfg, log, args[1:], stdout)
	case "devdb":
		return runDevDB(ctx, cfg, args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usageText())
		return nil
	default:
		fmt.Fprint(stderr, usageText())
		return fmt.Errorf("%w: unknown subcommand %q", errUsage, args[0])
	}
}

// usageText is the help of every subcommand.
func usageText() string { return fmt.Sprintf(usage, cli.Usage()) }

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	// logctx adds the request id, app, client and trace ids of a log call's context.
	if cfg.LogFormat == "json" {
		return slog.New(logctx.Wrap(slog.NewJSONHandler(w, opts)))
	}
	return slog.New(logctx.Wrap(slog.NewTextHandler(w, opts)))
}
