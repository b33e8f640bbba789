package appinsights

import (
	"context"
	"log/slog"
	"testing"

	"github.com/heraldhq/herald/dbtest"
)

// TestProviderInstancesTable reads providers from the configuration work's table once the
// database has one, and says none until then.
func TestProviderInstancesTable(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	has := ProviderInstancesTable(d, slog.New(slog.DiscardHandler))
	if ok, err := has(ctx, 1); err != nil || ok {
		t.Fatalf("without the table: %v %v", ok, err)
	}
	if _, err := d.Pool.Exec(ctx, `CREATE TABLE provider_instances (id bigserial PRIMARY KEY, app_id bigint NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if ok, err := has(ctx, 1); err != nil || ok {
		t.Fatalf("empty table: %v %v", ok, err)
	}
	if _, err := d.Pool.Exec(ctx, `INSERT INTO provider_instances (app_id) VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	if ok, err := has(ctx, 1); err != nil || !ok {
		t.Errorf("app 1 with an instance: %v %v", ok, err)
	}
	if ok, err := has(ctx, 2); err != nil || ok {
		t.Errorf("app 2 without: %v %v", ok, err)
	}
}
