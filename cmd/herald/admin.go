package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/heraldhq/herald/config"
	"github.com/heraldhq/herald/db"
)

func runMigrate(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	return db.Migrate(ctx, cfg.DatabaseURL, log)
}

func runApps(ctx context.Context, cfg config.Config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("%w: herald apps create --name NAME", errUsage)
	}
	fs := flag.NewFlagSet("apps create", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("name", "", "name of the app")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %v; herald apps create --name NAME", errUsage, err)
	}
	if *name == "" {
		return fmt.Errorf("%w: --name is required: herald apps create --name NAME", errUsage)
	}
	s, err := open(ctx, cfg, slog.New(slog.DiscardHandler), false)
	if err != nil {
		return err
	}
	defer s.Close()
	creds, err := s.Apps.Create(ctx, *name)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(creds)
}
