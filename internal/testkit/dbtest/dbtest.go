// Package dbtest gives each test its own migrated Postgres database. The server is, in
// order: HERALD_TEST_DATABASE_URL; a testcontainers Postgres when Docker answers; the server
// at HERALD_DATABASE_URL (or the default URL) when it answers; a private cluster under
// .data/pg started with initdb/pg_ctl. Databases are cloned from a template migrated once
// per schema version, so a new one costs a CREATE DATABASE.
package dbtest

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testcontainers/testcontainers-go"
	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/devenv"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

var (
	serverOnce sync.Once
	serverURL  string
	serverErr  error
)

// ServerURL returns a URL of the test Postgres server (its "postgres" database).
func ServerURL(tb testing.TB) string {
	tb.Helper()
	serverOnce.Do(func() { serverURL, serverErr = findServer(context.Background()) })
	if serverErr != nil {
		tb.Fatalf("no Postgres for tests: %v", serverErr)
	}
	return serverURL
}

func findServer(ctx context.Context) (string, error) {
	if u := os.Getenv("HERALD_TEST_DATABASE_URL"); u != "" {
		return db.WithDatabase(u, "postgres"), nil
	}
	if u, ok := fromDocker(ctx); ok {
		return u, nil
	}
	dflt := os.Getenv("HERALD_DATABASE_URL")
	if dflt == "" {
		dflt = config.Defaults().DatabaseURL
	}
	if devenv.PostgresAnswers(ctx, dflt) {
		return db.WithDatabase(dflt, "postgres"), nil
	}
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	return devenv.PrivatePostgres(ctx, filepath.Join(root, ".data", "pg"), "postgres")
}

// fromDocker starts (or reuses) a Postgres container when a Docker engine answers.
func fromDocker(ctx context.Context) (string, bool) {
	if os.Getenv("DOCKER_HOST") == "" {
		if _, err := os.Stat("/var/run/docker.sock"); err != nil {
			return "", false
		}
	}
	p, err := testcontainers.NewDockerProvider()
	if err != nil {
		return "", false
	}
	hctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := p.Health(hctx); err != nil {
		return "", false
	}
	c, err := tcpostgres.Run(ctx, "postgres:16-alpine",
		tcpostgres.WithUsername("postgres"), tcpostgres.WithPassword("postgres"),
		tcpostgres.BasicWaitStrategies(), testcontainers.WithReuseByName("herald-test-postgres"))
	if err != nil {
		return "", false
	}
	u, err := c.ConnectionString(ctx, "sslmode=disable")
	if err != nil {
		return "", false
	}
	return db.WithDatabase(u, "postgres"), true
}

func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// URL creates a fresh migrated database for the test, dropped when the test ends, and
// returns its URL.
func URL(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	server := ServerURL(tb)
	tmpl, err := template(ctx, server)
	if err != nil {
		tb.Fatalf("test template database: %v", err)
	}
	name := "herald_test_" + strings.ToLower(secrets.HexToken(6))
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		tb.Fatalf("connect to test Postgres: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl)); err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	tb.Cleanup(func() {
		c, err := pgx.Connect(ctx, server)
		if err != nil {
			return
		}
		defer c.Close(ctx)
		_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return db.WithDatabase(server, name)
}

// New returns an open pool on a fresh migrated database for the test.
func New(tb testing.TB) *db.DB {
	tb.Helper()
	d, err := db.Open(context.Background(), URL(tb), db.PoolSize{MaxConns: 8})
	if err != nil {
		tb.Fatalf("open test database: %v", err)
	}
	tb.Cleanup(d.Close)
	return d
}

var templateMu sync.Mutex

// template makes sure the migrated template of the current schema exists. An advisory lock
// serialises test processes; the finished template refuses connections, so cloning it never
// collides with a migration in progress.
func template(ctx context.Context, server string) (string, error) {
	templateMu.Lock()
	defer templateMu.Unlock()
	name := "herald_tmpl_" + db.MigrationsHash()
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		return "", err
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock(684201)"); err != nil {
		return "", err
	}
	defer admin.Exec(ctx, "SELECT pg_advisory_unlock(684201)") //nolint:errcheck
	var ready bool
	err = admin.QueryRow(ctx, "SELECT datistemplate FROM pg_database WHERE datname = $1", name).Scan(&ready)
	if err == nil && ready {
		return name, nil
	}
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if err := db.Migrate(ctx, db.WithDatabase(server, name), slog.New(slog.DiscardHandler)); err != nil {
		return "", err
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+name+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
		return "", err
	}
	return name, nil
}
