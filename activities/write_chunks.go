package activities

import (
	"context"
	"runtime"
	"sync"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
)

// A call's writes are split into chunks of at least minChunkRows rows (inbox rows plus log
// rows), at most writeParallelism of them, written in concurrent transactions: one
// transaction keeps one Postgres backend busy while the others wait, so a large broadcast
// slice would use one core of the database.
const minChunkRows = 250

var writeParallelism = min(runtime.GOMAXPROCS(0), 4)

// writeChunk is one transaction's share of a call: the rows of some users and the progress
// of the requests they belong to.
type writeChunk struct {
	inbox dbsqlc.InsertInboxRowsOfPagesParams
	logs  dbsqlc.InsertMessageLogsOfPagesParams
	// requests are the requests whose progress the chunk records; done marks those it
	// completes.
	requests []uuid.UUID
	done     []bool
}

// splitByUser divides a call's writes by user (a user's rows stay in one chunk, so the
// chunks lock disjoint inbox counters) into as many chunks as the size allows. A call small
// enough for one chunk completes its requests in the same transaction as their rows. Split,
// no chunk completes anything: finish, written after every chunk has committed, does, so a
// request is never seen completed while some of its rows are still being written.
func splitByUser(inbox dbsqlc.InsertInboxRowsOfPagesParams, logs dbsqlc.InsertMessageLogsOfPagesParams, order []uuid.UUID, done map[uuid.UUID]bool) (chunks []*writeChunk, finish *writeChunk) {
	n := min(writeParallelism, (len(inbox.UserIds)+len(logs.UserIds))/minChunkRows)
	if n <= 1 {
		one := &writeChunk{inbox: inbox, logs: logs}
		for _, id := range order {
			one.requests = append(one.requests, id)
			one.done = append(one.done, done[id])
		}
		return []*writeChunk{one}, nil
	}
	finish = &writeChunk{}
	for _, id := range order {
		if done[id] {
			finish.requests = append(finish.requests, id)
			finish.done = append(finish.done, true)
		}
	}
	if len(finish.requests) == 0 {
		finish = nil
	}
	chunks = make([]*writeChunk, n)
	for i := range chunks {
		chunks[i] = &writeChunk{logs: dbsqlc.InsertMessageLogsOfPagesParams{WorkflowID: logs.WorkflowID}}
	}
	touched := make([]map[uuid.UUID]bool, n)
	for i := range touched {
		touched[i] = map[uuid.UUID]bool{}
	}
	for k, user := range inbox.UserIds {
		c := int(uint64(user) % uint64(n))
		in := &chunks[c].inbox
		in.AppIds = append(in.AppIds, inbox.AppIds[k])
		in.UserIds = append(in.UserIds, user)
		in.RequestIds = append(in.RequestIds, inbox.RequestIds[k])
		in.Titles = append(in.Titles, inbox.Titles[k])
		in.Messages = append(in.Messages, inbox.Messages[k])
		in.Icons = append(in.Icons, inbox.Icons[k])
		in.Urls = append(in.Urls, inbox.Urls[k])
		in.Datas = append(in.Datas, inbox.Datas[k])
		in.Blocks = append(in.Blocks, inbox.Blocks[k])
		in.CategoryIds = append(in.CategoryIds, inbox.CategoryIds[k])
		touched[c][inbox.RequestIds[k]] = true
	}
	for k, user := range logs.UserIds {
		c := int(uint64(user) % uint64(n))
		l := &chunks[c].logs
		l.AppIds = append(l.AppIds, logs.AppIds[k])
		l.RequestIds = append(l.RequestIds, logs.RequestIds[k])
		l.UserIds = append(l.UserIds, user)
		l.UserIdentifiers = append(l.UserIdentifiers, logs.UserIdentifiers[k])
		l.Channels = append(l.Channels, logs.Channels[k])
		l.Statuses = append(l.Statuses, logs.Statuses[k])
		l.Reasons = append(l.Reasons, logs.Reasons[k])
		l.Errors = append(l.Errors, logs.Errors[k])
		l.TemplateIdentifiers = append(l.TemplateIdentifiers, logs.TemplateIdentifiers[k])
	}
	for c := range n {
		for id := range touched[c] {
			chunks[c].requests = append(chunks[c].requests, id)
			chunks[c].done = append(chunks[c].done, false)
		}
	}
	return chunks, finish
}

// writeChunks writes each chunk in its own transaction, concurrently, then finish (the
// completions) once all have committed, and returns what the chunks inserted. A failed chunk
// fails the call; the retry rewrites only what is missing and then completes. Request rows
// are locked in id order (RecordDeliveredOfPages), so chunks never deadlock.
func (a *Delivery) writeChunks(ctx context.Context, chunks []*writeChunk, finish *writeChunk) ([]dbsqlc.InsertInboxRowsOfPagesRow, []dbsqlc.InsertMessageLogsOfPagesRow, error) {
	if len(chunks) == 1 && finish == nil {
		return a.writeChunk(ctx, chunks[0])
	}
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		written []dbsqlc.InsertInboxRowsOfPagesRow
		logged  []dbsqlc.InsertMessageLogsOfPagesRow
		first   error
	)
	for _, c := range chunks {
		wg.Go(func() {
			w, l, err := a.writeChunk(ctx, c)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if first == nil {
					first = err
				}
				return
			}
			written = append(written, w...)
			logged = append(logged, l...)
		})
	}
	wg.Wait()
	if first == nil && finish != nil {
		_, _, first = a.writeChunk(ctx, finish)
	}
	return written, logged, first
}

// writeChunk writes one chunk in one transaction of three statements.
func (a *Delivery) writeChunk(ctx context.Context, c *writeChunk) (written []dbsqlc.InsertInboxRowsOfPagesRow, logged []dbsqlc.InsertMessageLogsOfPagesRow, err error) {
	err = a.DB.InTx(ctx, func(q *dbsqlc.Queries, _ pgx.Tx) error {
		var err error
		if len(c.inbox.UserIds) > 0 {
			if written, err = q.InsertInboxRowsOfPages(ctx, c.inbox); err != nil {
				return err
			}
		}
		if len(c.logs.UserIds) > 0 {
			if logged, err = q.InsertMessageLogsOfPages(ctx, c.logs); err != nil {
				return err
			}
		}
		delivered := map[uuid.UUID]int32{}
		for _, r := range written {
			delivered[r.RequestID]++
		}
		rec := dbsqlc.RecordDeliveredOfPagesParams{}
		for k, id := range c.requests {
			rec.Ids = append(rec.Ids, id)
			rec.Delivered = append(rec.Delivered, delivered[id])
			rec.Done = append(rec.Done, c.done[k])
		}
		if len(rec.Ids) == 0 {
			return nil
		}
		return q.RecordDeliveredOfPages(ctx, rec)
	})
	if err != nil {
		return nil, nil, db.MapError(err)
	}
	return written, logged, nil
}
