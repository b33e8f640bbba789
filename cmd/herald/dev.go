package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/devenv"
	"github.com/heraldhq/herald/internal/stack"
)

// demoAppName is the app `herald dev` creates once and prints the credentials of.
const demoAppName = "demo"

// runDev runs everything in one process for development: Postgres and Temporal are used when
// they answer and started locally when they do not.
func runDev(ctx context.Context, cfg config.Config, log *slog.Logger, stdout io.Writer) error {
	var err error
	if cfg.DatabaseURL, err = devPostgres(ctx, cfg, log); err != nil {
		return err
	}
	if err := db.Migrate(ctx, cfg.DatabaseURL, log); err != nil {
		return err
	}
	temporalUI := ""
	codecEndpoint := devCodecEndpoint(cfg)
	if devenv.Answers(ctx, cfg.TemporalAddress) {
		log.Info("using the Temporal server that answers", "address", cfg.TemporalAddress)
	} else {
		srv, err := devTemporal(ctx, cfg, codecEndpoint, log)
		if err != nil {
			return err
		}
		defer srv.Stop()
		temporalUI = srv.UIURL
		// The console's workflow test runs link to the dev server's Web UI.
		if cfg.TemporalUIURL == "" {
			cfg.TemporalUIURL = temporalUI
		}
		// Its Web UI decodes payloads through /codec from the developer's browser.
		cfg.Codec.ServerOrigins = append(cfg.Codec.ServerOrigins, devUIOrigins(temporalUI)...)
	}

	s, err := open(ctx, cfg, log, true, false)
	if err != nil {
		return err
	}
	defer s.Close()
	// Without HERALD_CODEC_SERVER_TOKEN, the codec server answers loopback callers only.
	s.CodecLoopbackWithoutToken = true
	creds, err := demoApp(ctx, s)
	if err != nil {
		return err
	}
	if err := devConsoleAccount(ctx, s, creds.AppID); err != nil {
		return fmt.Errorf("the console's dev account: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on HERALD_HTTP_ADDR=%s: %w", cfg.HTTPAddr, err)
	}
	printBanner(stdout, cfg, temporalUI, creds)

	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return s.ServeHTTP(gctx, ln) })
	g.Go(func() error { return s.RunRelay(gctx) })
	g.Go(func() error { return s.RunWorker(gctx) })
	return g.Wait()
}

// devPostgres returns a database URL that answers: the configured one, or a private cluster
// under the data directory.
func devPostgres(ctx context.Context, cfg config.Config, log *slog.Logger) (string, error) {
	if devenv.PostgresAnswers(ctx, cfg.DatabaseURL) {
		return cfg.DatabaseURL, nil
	}
	log.Info("no Postgres answers at HERALD_DATABASE_URL; starting a private cluster", "url", config.MaskURL(cfg.DatabaseURL), "dir", filepath.Join(cfg.DataDir, "pg"))
	url, err := devenv.PrivatePostgres(ctx, filepath.Join(cfg.DataDir, "pg"), "herald")
	if err != nil {
		return "", err
	}
	log.Info("private Postgres running (it keeps running after herald stops; `make stop-postgres` stops it)", "url", url)
	return url, nil
}

// devTemporal starts the pinned Temporal CLI's dev server at the configured address, keeping
// its state in the data directory.
func devTemporal(ctx context.Context, cfg config.Config, codecEndpoint string, log *slog.Logger) (*devenv.Temporal, error) {
	cli, err := devenv.FindTemporalCLI(cfg.TemporalCLI)
	if err != nil {
		return nil, err
	}
	_, portStr, err := net.SplitHostPort(cfg.TemporalAddress)
	if err != nil {
		return nil, fmt.Errorf("HERALD_TEMPORAL_ADDRESS=%s: %w", cfg.TemporalAddress, err)
	}
	port, _ := strconv.Atoi(portStr)
	logPath := filepath.Join(cfg.DataDir, "temporal.log")
	if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	log.Info("no Temporal server answers; starting the dev server", "cli", cli, "address", cfg.TemporalAddress, "log", logPath)
	return devenv.StartTemporal(ctx, devenv.TemporalOptions{
		CLI: cli, Address: cfg.TemporalAddress, UIPort: port + 1000, Namespace: cfg.TemporalNamespace,
		DBFile: filepath.Join(cfg.DataDir, "temporal.db"), Output: logFile, UICodecEndpoint: codecEndpoint,
		DynamicConfig: devenv.DynamicConfigFrom(cfg.DevTemporalDynamicConfig),
	})
}

// devCodecEndpoint is the codec server of the API as the developer's browser reaches it:
// HERALD_PUBLIC_URL, else the listen address (a wildcard host as localhost), and /codec.
func devCodecEndpoint(cfg config.Config) string {
	if cfg.PublicURL != "" {
		return strings.TrimRight(cfg.PublicURL, "/") + stack.CodecPath
	}
	host, port, err := net.SplitHostPort(cfg.HTTPAddr)
	if err != nil {
		return "http://" + cfg.HTTPAddr + stack.CodecPath
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + stack.CodecPath
}

// devUIOrigins are the origins the dev server's Web UI is opened at: its URL, and the same
// port on localhost and 127.0.0.1.
func devUIOrigins(uiURL string) []string {
	u, err := url.Parse(uiURL)
	if err != nil || u.Host == "" {
		return nil
	}
	out := []string{u.Scheme + "://" + u.Host}
	if port := u.Port(); port != "" {
		for _, h := range []string{"localhost", "127.0.0.1"} {
			if o := u.Scheme + "://" + net.JoinHostPort(h, port); o != out[0] {
				out = append(out, o)
			}
		}
	}
	return out
}

// demoApp returns the credentials of the demo app, creating it on first use. A demo app
// without allowed origins gets "*", so the inbox widget works from any local page.
func demoApp(ctx context.Context, s *stack.Stack) (apps.Credentials, error) {
	app, err := s.Apps.ByName(ctx, demoAppName)
	if herald.ErrorCode(err) == herald.ENOTFOUND {
		creds, err := s.Apps.Create(ctx, demoAppName)
		if err != nil {
			return creds, err
		}
		return creds, s.Apps.SetAllowedOrigins(ctx, creds.AppID, []string{apps.AnyOrigin})
	}
	if err != nil {
		return apps.Credentials{}, err
	}
	if len(app.AllowedOrigins) == 0 {
		if err := s.Apps.SetAllowedOrigins(ctx, app.ID, []string{apps.AnyOrigin}); err != nil {
			return apps.Credentials{}, err
		}
	}
	secret, err := s.Apps.Secret(ctx, app.ID)
	if err != nil {
		return apps.Credentials{}, fmt.Errorf("demo app secret: %w", err)
	}
	return apps.Credentials{AppID: app.ID, APIKey: app.APIKey, APISecret: secret}, nil
}

// The console account `herald dev` prepares: it owns the team of the demo app. Its
// password is set on every start, so the printed one always works.
const (
	devConsoleEmail    = "dev@example.com"
	devConsolePassword = "herald-dev-password"
	devTeamName        = "Demo team"
)

// devConsoleAccount makes sure the dev console account exists, is verified, owns a team,
// and that the demo app belongs to that team (when it belongs to none yet).
func devConsoleAccount(ctx context.Context, s *stack.Stack, demoAppID int64) error {
	u, err := s.Console.EnsureDevAccount(ctx, devConsoleEmail, "Developer", devConsolePassword)
	if err != nil {
		return err
	}
	actor := clients.Actor{UserID: u.ID}
	list, err := s.Clients.List(ctx, actor)
	if err != nil {
		return err
	}
	var clientID int64
	for _, c := range list {
		if c.Name == devTeamName {
			clientID = c.ID
		}
	}
	if clientID == 0 {
		c, err := s.Clients.Create(ctx, actor, devTeamName)
		if err != nil {
			return err
		}
		clientID = c.ID
	}
	return s.Apps.Adopt(ctx, demoAppID, clientID)
}

func printBanner(w io.Writer, cfg config.Config, temporalUI string, creds apps.Credentials) {
	js, _ := json.Marshal(creds)
	fmt.Fprintf(w, "\nHerald is running.\n  Console:      http://%s  (sign in as %s / %s)\n", cfg.HTTPAddr, devConsoleEmail, devConsolePassword)
	fmt.Fprintf(w, "  API:          http://%s\n", cfg.HTTPAddr)
	if temporalUI != "" {
		fmt.Fprintf(w, "  Temporal UI:  %s\n", temporalUI)
	} else {
		fmt.Fprintf(w, "  Temporal:     %s (already running; its UI is wherever that server serves it)\n", cfg.TemporalAddress)
	}
	fmt.Fprintf(w, "  Codec server: %s  (decodes the encrypted Temporal payloads for the UI and `temporal --codec-endpoint`)\n", devCodecEndpoint(cfg))
	fmt.Fprintf(w, "  Demo app:     %s\n\n", js)
	fmt.Fprintf(w, "Send:   curl -s -X POST http://%s/v3/notifications -H 'Content-Type: application/json' \\\n", cfg.HTTPAddr)
	fmt.Fprintf(w, "          -H '%sAPI-KEY: %s' -H '%sAPI-SECRET: %s' \\\n", cfg.HeaderPrefix, creds.APIKey, cfg.HeaderPrefix, creds.APISecret)
	fmt.Fprintf(w, "          -d '{\"notification\":{\"title\":\"Hello\"},\"sendTo\":{\"recipients\":[\"alice\"]}}'\n")
	fmt.Fprintf(w, "Inbox:  curl -s http://%s/v3/notifications -H '%sAPI-KEY: %s' -H '%sUSER-ID: alice'\n", cfg.HTTPAddr, cfg.HeaderPrefix, creds.APIKey, cfg.HeaderPrefix)
	fmt.Fprintf(w, "Widget: <script type=\"module\" src=\"http://%s/widget/herald-inbox.js\"></script>\n", cfg.HTTPAddr)
	fmt.Fprintf(w, "        <herald-inbox api-key=\"%s\" user-id=\"alice\" base-url=\"http://%s\"></herald-inbox>\n\n", creds.APIKey, cfg.HTTPAddr)
}

// runDevDB starts or stops the private Postgres cluster of the data directory.
func runDevDB(ctx context.Context, cfg config.Config, args []string, stdout io.Writer) error {
	dir := filepath.Join(cfg.DataDir, "pg")
	switch {
	case len(args) == 1 && args[0] == "start":
		url, err := devenv.PrivatePostgres(ctx, dir, "herald")
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, url)
		return nil
	case len(args) == 1 && args[0] == "stop":
		return devenv.StopPrivatePostgres(ctx, dir)
	}
	return fmt.Errorf("%w: herald devdb start|stop", errUsage)
}
