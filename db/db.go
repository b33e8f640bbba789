// Package db owns Herald's schema (goose migrations, also read by sqlc), its SQL queries,
// the sqlc-generated package dbsqlc, and the helpers every store uses: opening the pool,
// transactions, and mapping database errors to domain errors.
package db

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// DB is the pool and the generated queries bound to it.
type DB struct {
	Pool *pgxpool.Pool
	*dbsqlc.Queries
}

// PoolSize sizes a process's connection pool.
type PoolSize struct {
	// MaxConns bounds the connections open at once (0: pgx's default).
	MaxConns int
	// MinIdleConns is how many idle connections the pool keeps open beside those in use,
	// topped up in the background: when a process's concurrent work rises at once (a
	// broadcast and a burst beginning together), its queries find a connection ready
	// instead of each opening one in its request's path (a new backend, about 10 ms on a
	// busy database; issue 28).
	MinIdleConns int
}

// Open connects to Postgres and checks the connection.
func Open(ctx context.Context, url string, size PoolSize) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("HERALD_DATABASE_URL is not a valid Postgres URL: %w", err)
	}
	if size.MaxConns > 0 {
		cfg.MaxConns = int32(size.MaxConns)
	}
	cfg.MinIdleConns = int32(min(size.MinIdleConns, int(cfg.MaxConns)))
	cfg.MaxConnIdleTime = 5 * time.Minute
	cfg.AfterConnect = func(_ context.Context, conn *pgx.Conn) error {
		registerUUID(conn.TypeMap())
		return nil
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cannot reach Postgres at %s (is it running? run `herald migrate` to create the database): %w", cfg.ConnConfig.Host, err)
	}
	return &DB{Pool: pool, Queries: dbsqlc.New(pool)}, nil
}

// Close closes the pool.
func (d *DB) Close() { d.Pool.Close() }

// InTx runs fn in a transaction, committing when it returns nil and rolling back otherwise.
func (d *DB) InTx(ctx context.Context, fn func(q *dbsqlc.Queries, tx pgx.Tx) error) error {
	tx, err := d.Pool.Begin(ctx)
	if err != nil {
		return MapError(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit this is a no-op
	if err := fn(d.Queries.WithTx(tx), tx); err != nil {
		return err
	}
	return MapError(tx.Commit(ctx))
}

// Postgres error codes the stores classify.
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
	codeCheckViolation      = "23514"
	codeInvalidText         = "22P02"
	// Text Postgres cannot store: invalid UTF-8 or a NUL byte (22021), a \u0000 escape in
	// JSON (22P05).
	codeBadCharacter       = "22021"
	codeUntranslatableChar = "22P05"
)

// MapError classifies a database error at the store edge: no rows → not found, unique
// violation → conflict, connection failures → unavailable. Other errors pass through and end
// up as 500s with their details only in the log.
func MapError(err error) error {
	if err == nil {
		return nil
	}
	var he *herald.Error
	if errors.As(err, &he) {
		return err
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return &herald.Error{Code: herald.ENOTFOUND, Message: "not found", Err: err}
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case codeUniqueViolation:
			return &herald.Error{Code: herald.ECONFLICT, Message: "already exists", Err: err}
		case codeForeignKeyViolation, codeCheckViolation, codeInvalidText:
			return &herald.Error{Code: herald.EINVALID, Message: "invalid reference or value", Err: err}
		case codeBadCharacter, codeUntranslatableChar:
			return &herald.Error{Code: herald.EINVALID, Message: "text must be valid UTF-8 without NUL characters", Err: err}
		}
		if len(pgErr.Code) >= 2 && (pgErr.Code[:2] == "08" || pgErr.Code[:2] == "57") {
			return &herald.Error{Code: herald.EUNAVAILABLE, Message: "database unavailable", Err: err}
		}
		return err
	}
	if pgconn.SafeToRetry(err) || pgconn.Timeout(err) || isConnError(err) {
		return &herald.Error{Code: herald.EUNAVAILABLE, Message: "database unavailable", Err: err}
	}
	return err
}

func isConnError(err error) bool {
	var connErr *pgconn.ConnectError
	return errors.As(err, &connErr)
}
