package pipeline

import (
	"context"
	"sync"
)

// bulkRows is the number of message log rows past which a write is bulk (see bulkWrite):
// a single send's writes, and a small app's, stay below it and never wait.
const bulkRows = 16

// DefaultBulkWriters is Service.BulkWriters by default.
const DefaultBulkWriters = 1

// bulkWrites is the gate of bulk message log writes (see bulkWrite).
type bulkWrites struct {
	once  sync.Once
	turns chan struct{}
}

// bulkWrite runs write, a statement over n message log rows. Past bulkRows rows it first
// waits for one of the process's BulkWriters turns, and holds it while the statement runs.
//
// Why: the statements that claim a batch's messages, mark them sent and record failed or
// held attempts each update up to a few hundred rows, and a provider's batches come in
// waves: a broadcast's first eight batches claim at the same moment, and when a hung
// provider's calls time out or its breaker opens, every batch in flight records its
// attempts at once. Fifteen such statements at a time took the WAL insertion locks and
// both cores of the box for a few hundred milliseconds, and every other app's commits
// (a one-time code's accept, its inbox row) queued behind them (issue 28: app B's sends in
// the half-second after app A's breaker opened were 5–10 times slower than idle). One at a
// time they write the same rows in the same total time, without the convoy; a write of a
// few rows does not wait.
func (a *Service) bulkWrite(ctx context.Context, n int, write func() error) error {
	if n <= bulkRows {
		return write()
	}
	g := &a.bulk
	g.once.Do(func() {
		size := a.BulkWriters
		if size <= 0 {
			size = DefaultBulkWriters
		}
		g.turns = make(chan struct{}, size)
	})
	select {
	case g.turns <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-g.turns }()
	return write()
}
