package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/config"
)

func runMigrate(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	return db.Migrate(ctx, cfg.DatabaseURL, log)
}

func runApps(ctx context.Context, cfg config.Config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("%w: herald apps create --name NAME [--client ID]", errUsage)
	}
	fs := flag.NewFlagSet("apps create", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("name", "", "name of the app")
	client := fs.Int64("client", 0, "id of the client that owns the app (it then shows in the console)")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %v; herald apps create --name NAME [--client ID]", errUsage, err)
	}
	if *name == "" {
		return fmt.Errorf("%w: --name is required: herald apps create --name NAME [--client ID]", errUsage)
	}
	s, err := open(ctx, cfg, slog.New(slog.DiscardHandler), false, false)
	if err != nil {
		return err
	}
	defer s.Close()
	if *client > 0 {
		app, err := s.Apps.CreateInClient(ctx, *client, *name)
		if err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(apps.Credentials{AppID: app.ID, APIKey: app.APIKey, APISecret: app.APISecret})
	}
	creds, err := s.Apps.Create(ctx, *name)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(creds)
}

// runConfig prints every setting with its default and current value, secrets masked, and
// fails listing every bad value; with --markdown it prints docs/configuration.md instead.
func runConfig(args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	markdown := fs.Bool("markdown", false, "print docs/configuration.md")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fmt.Errorf("%w: herald config [--markdown]", errUsage)
	}
	if *markdown {
		_, err := io.WriteString(stdout, config.Markdown())
		return err
	}
	if err := config.WriteTable(stdout, getenv); err != nil {
		return err
	}
	_, err := config.Load(getenv)
	return err
}
