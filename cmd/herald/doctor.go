package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"golang.org/x/term"

	"github.com/heraldhq/herald/internal/cli"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/stack"
)

// runDoctor checks the installation (internal/ops/doctor) and prints the report, as a
// table or with --json as JSON; any FAIL makes the exit status 1. It runs before
// config.Load stops anything: a bad setting is one finding among the others.
func runDoctor(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fmt.Errorf("%w: herald doctor [--json]", errUsage)
	}
	cfg, cfgErr := config.Load(getenv)
	d, closeAll := stack.OpenDoctor(ctx, cfg, cfgErr, slog.New(slog.DiscardHandler))
	defer closeAll()
	report := d.Run(ctx)
	var err error
	if *asJSON {
		err = report.WriteJSON(stdout)
	} else {
		err = report.WriteTable(stdout, colourful(stdout, getenv))
	}
	if err != nil {
		return err
	}
	if report.Failed() {
		return cli.ErrFailed
	}
	return nil
}

// colourful reports whether w is a terminal that accepts colours (NO_COLOR unset).
func colourful(w io.Writer, getenv func(string) string) bool {
	f, ok := w.(*os.File)
	return ok && getenv("NO_COLOR") == "" && term.IsTerminal(int(f.Fd()))
}
