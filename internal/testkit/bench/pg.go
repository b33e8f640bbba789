package bench

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
)

// dropDatabase removes a benchmark database; failures are ignored (it is scratch data).
func dropDatabase(dbURL string) {
	ctx := context.Background()
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		return
	}
	admin, err := pgx.Connect(ctx, db.WithDatabase(dbURL, "postgres"))
	if err != nil {
		return
	}
	defer admin.Close(ctx)
	_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{cfg.Database}.Sanitize()+" WITH (FORCE)")
}
