package db_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// uuid.UUID values, pointers, nulls and arrays go both ways in the binary and the text
// protocol, and come back equal.
func TestUUIDRoundTrips(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	a, b := uuid.New(), uuid.New()
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		var got uuid.UUID
		var gotPtr, gotNull *uuid.UUID
		var gotArr []uuid.UUID
		var text string
		err := d.Pool.QueryRow(ctx, "SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid[], $1::uuid::text", mode, a, &b, (*uuid.UUID)(nil), []uuid.UUID{b, a}).
			Scan(&got, &gotPtr, &gotNull, &gotArr, &text)
		if err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		if got != a || gotPtr == nil || *gotPtr != b || gotNull != nil || len(gotArr) != 2 || gotArr[0] != b || gotArr[1] != a || text != a.String() {
			t.Errorf("mode %v: got %v %v %v %v %q", mode, got, gotPtr, gotNull, gotArr, text)
		}
	}
	var dst uuid.UUID
	if err := d.Pool.QueryRow(ctx, "SELECT NULL::uuid").Scan(&dst); err == nil {
		t.Error("NULL scanned into uuid.UUID without an error")
	}
	// Other types the codec leaves to pgx still work.
	var s string
	if err := d.Pool.QueryRow(ctx, "SELECT $1::uuid::text", a.String()).Scan(&s); err != nil || s != a.String() {
		t.Errorf("string parameter: %q %v", s, err)
	}
}
