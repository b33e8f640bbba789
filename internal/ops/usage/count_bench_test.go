package usage_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/send"
)

// BenchmarkRelayClaim measures the relay's claim transaction of a pack of 25 requests, with
// and without counting them (the cost usage counting adds per pack).
func BenchmarkRelayClaim(b *testing.B) {
	for _, count := range []bool{false, true} {
		name := "Claim"
		if count {
			name = "ClaimAndCount"
		}
		b.Run(name, func(b *testing.B) {
			f := newFixture(b)
			ctx := context.Background()
			svc := send.NewService(f.d, nil)
			wf := "bench"
			for b.Loop() {
				b.StopTimer()
				for i := 0; i < 25; i++ {
					if _, err := svc.Accept(ctx, f.appID, []byte(body), ""); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				err := f.d.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
					rows, err := q.ClaimFreshRequests(ctx, 100)
					if err != nil {
						return err
					}
					ids := make([]uuid.UUID, len(rows))
					for i, r := range rows {
						ids[i] = r.ID
					}
					if err := q.AssignWorkflow(ctx, dbsqlc.AssignWorkflowParams{WorkflowID: &wf, LeaseSeconds: 30, Ids: ids}); err != nil {
						return err
					}
					if count {
						return q.CountRequestUsage(ctx, ids)
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
