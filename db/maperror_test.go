package db

import (
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	herald "github.com/heraldhq/herald"
)

// Text Postgres refuses to store (a NUL byte in a path parameter, invalid UTF-8 or a
// \u0000 escape in a JSON body) is the caller's mistake: 400, not 500.
func TestMapErrorBadText(t *testing.T) {
	for _, code := range []string{"22021", "22P05", "22P02", "23503"} {
		if got := herald.ErrorCode(MapError(&pgconn.PgError{Code: code})); got != herald.EINVALID {
			t.Errorf("SQLSTATE %s maps to %s, want %s", code, got, herald.EINVALID)
		}
	}
	for code, want := range map[string]string{"23505": herald.ECONFLICT, "57P01": herald.EUNAVAILABLE, "08006": herald.EUNAVAILABLE} {
		if got := herald.ErrorCode(MapError(&pgconn.PgError{Code: code})); got != want {
			t.Errorf("SQLSTATE %s maps to %s, want %s", code, got, want)
		}
	}
}
