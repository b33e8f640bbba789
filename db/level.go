package db

import (
	"context"
	"fmt"
	"io/fs"
	"slices"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pressly/goose/v3"
)

// Level compares the database's applied migrations with the ones embedded in this binary,
// without changing anything (goose's own status would create its table): Pending are
// embedded versions the database lacks (run `herald migrate`), Unknown are applied versions
// this binary does not carry (the database was migrated by a newer release).
type Level struct {
	Applied int // applied versions, goose's initial version 0 left out
	Pending []int64
	Unknown []int64
}

// Versions are the migration versions embedded in this binary, in order.
func Versions() []int64 {
	entries, _ := fs.ReadDir(migrations, "migrations")
	var out []int64
	for _, e := range entries {
		if v, err := goose.NumericComponent(e.Name()); err == nil {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// MigrationLevel reads goose's version table (goose_db_version) and compares it with
// Versions. A database never migrated has every version pending.
func MigrationLevel(ctx context.Context, pool *pgxpool.Pool) (Level, error) {
	var l Level
	var table *string
	if err := pool.QueryRow(ctx, "SELECT to_regclass('goose_db_version')::text").Scan(&table); err != nil {
		return l, fmt.Errorf("read the migration level: %w", err)
	}
	applied := map[int64]bool{}
	if table != nil {
		rows, err := pool.Query(ctx, "SELECT version_id FROM goose_db_version WHERE version_id > 0 AND is_applied")
		if err != nil {
			return l, fmt.Errorf("read the migration level: %w", err)
		}
		for rows.Next() {
			var v int64
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return l, err
			}
			applied[v] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return l, fmt.Errorf("read the migration level: %w", err)
		}
	}
	l.Applied = len(applied)
	known := map[int64]bool{}
	for _, v := range Versions() {
		known[v] = true
		if !applied[v] {
			l.Pending = append(l.Pending, v)
		}
	}
	for v := range applied {
		if !known[v] {
			l.Unknown = append(l.Unknown, v)
		}
	}
	slices.Sort(l.Unknown)
	return l, nil
}
