package db

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver for goose
	"github.com/pressly/goose/v3"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrate creates the database named in url when it does not exist, then applies every
// pending migration. Running it again changes nothing.
func Migrate(ctx context.Context, dbURL string, log *slog.Logger) error {
	if err := CreateDatabase(ctx, dbURL); err != nil {
		return err
	}
	sqlDB, err := sql.Open("pgx", dbURL)
	if err != nil {
		return err
	}
	defer sqlDB.Close()
	// Migrations are numbered in blocks per area; allowing out-of-order application lets a
	// lower-numbered file that lands later still apply to existing databases.
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, mustSub(migrations, "migrations"), goose.WithAllowOutofOrder(true))
	if err != nil {
		return err
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, r := range results {
		log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	version, err := provider.GetDBVersion(ctx)
	if err != nil {
		return err
	}
	log.Info("database schema is current", "version", version, "applied", len(results))
	return nil
}

// CreateDatabase creates the database named in dbURL if it is missing, connecting to the
// server's "postgres" database to do so.
func CreateDatabase(ctx context.Context, dbURL string) error {
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		return fmt.Errorf("HERALD_DATABASE_URL is not a valid Postgres URL: %w", err)
	}
	name := cfg.Database
	if name == "" || name == "postgres" {
		return nil
	}
	admin, err := pgx.Connect(ctx, WithDatabase(dbURL, "postgres"))
	if err != nil {
		return fmt.Errorf("cannot reach Postgres at %s:%d to create database %q: %w", cfg.Host, cfg.Port, name, err)
	}
	defer admin.Close(ctx)
	var exists bool
	if err := admin.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	if err != nil && !strings.Contains(err.Error(), "already exists") {
		return fmt.Errorf("create database %q: %w", name, err)
	}
	return nil
}

// WithDatabase returns dbURL with its database name replaced.
func WithDatabase(dbURL, name string) string {
	u, err := url.Parse(dbURL)
	if err != nil || u.Scheme == "" {
		// key=value form
		return dbURL + " dbname=" + name
	}
	u.Path = "/" + name
	return u.String()
}

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return sub
}

// MigrationsHash fingerprints the migrations, so test harnesses can keep one migrated
// template database per schema version.
func MigrationsHash() string {
	h := sha256.New()
	entries, _ := fs.ReadDir(migrations, "migrations")
	for _, e := range entries {
		b, _ := fs.ReadFile(migrations, "migrations/"+e.Name())
		h.Write([]byte(e.Name()))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
