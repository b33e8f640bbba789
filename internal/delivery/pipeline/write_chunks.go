package pipeline

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"sync"
	"time"

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

// callRows counts the rows (inbox and message log) the pages of a call write, in all and
// of its largest request (a broadcast's slice has one large request, a pack of single
// sends many small ones), and reports whether the call delivers each of its requests to
// its last recipient (each has its last page among the call's).
func callRows(works []*pageWork) (rows, largest int, whole bool) {
	type request struct {
		rows int
		done bool
	}
	byRequest := map[uuid.UUID]request{}
	for _, pw := range works {
		n := len(pw.w.inbox.UserIds) + len(pw.w.logs.UserIds)
		rows += n
		r := byRequest[pw.sc.requestID]
		r.rows += n
		r.done = r.done || pw.done
		byRequest[pw.sc.requestID] = r
		largest = max(largest, r.rows)
	}
	whole = true
	for _, r := range byRequest {
		whole = whole && r.done
	}
	return rows, largest, whole
}

// chunkCount is how many transactions write a call of rows rows: one for a small call, up
// to writeParallelism (written at once) for a large one, or, for a large call that yields
// to single sends, enough for each to hold about pacedChunkRows rows (see
// writeChunksYielding).
func chunkCount(rows int, yields bool) int {
	if yields {
		return max(1, (rows+pacedChunkRows-1)/pacedChunkRows)
	}
	return max(1, min(writeParallelism, rows/minChunkRows))
}

// chunkWrites gathers the pages of a call into the column arrays of n transactions: split
// by user (a user's rows stay in one chunk, so the chunks lock disjoint inbox counters). A
// call written in one transaction completes its requests there, with their rows. Split, no
// chunk completes anything: finish, written after every chunk has committed, does, so a
// request is never seen completed while some of its rows are still being written.
func chunkWrites(works []*pageWork, n int) (chunks []*writeChunk, finish *writeChunk) {
	n = max(1, n)
	chunks = make([]*writeChunk, n)
	touched := make([]map[uuid.UUID]bool, n)
	for i := range chunks {
		chunks[i] = &writeChunk{logs: dbsqlc.InsertMessageLogsOfPagesParams{WorkflowID: works[0].sc.workflowID}}
		touched[i] = map[uuid.UUID]bool{}
	}
	chunkOf := func(user int64) int { return int(uint64(user) % uint64(n)) }
	done := map[uuid.UUID]bool{}
	var order []uuid.UUID
	for _, pw := range works {
		in, l := pw.w.inbox, pw.w.logs
		cat := int64(0)
		if in.CategoryID != nil {
			cat = *in.CategoryID
		}
		for k, user := range in.UserIds {
			c := chunkOf(user)
			dst := &chunks[c].inbox
			dst.AppIds = append(dst.AppIds, in.AppID)
			dst.UserIds = append(dst.UserIds, user)
			dst.RequestIds = append(dst.RequestIds, in.RequestID)
			dst.Titles = append(dst.Titles, in.Titles[k])
			dst.Messages = append(dst.Messages, in.Messages[k])
			dst.Icons = append(dst.Icons, in.Icons[k])
			dst.Urls = append(dst.Urls, in.Urls[k])
			dst.Datas = append(dst.Datas, in.Data)
			if k < len(pw.w.rowBlocks) && pw.w.rowBlocks[k] != nil {
				dst.Blocks = append(dst.Blocks, pw.w.rowBlocks[k])
			} else {
				dst.Blocks = append(dst.Blocks, in.Blocks)
			}
			dst.CategoryIds = append(dst.CategoryIds, cat)
			touched[c][in.RequestID] = true
		}
		for k, user := range l.UserIds {
			dst := &chunks[chunkOf(user)].logs
			dst.AppIds = append(dst.AppIds, l.AppID)
			dst.RequestIds = append(dst.RequestIds, l.RequestID)
			dst.UserIds = append(dst.UserIds, user)
			dst.UserIdentifiers = append(dst.UserIdentifiers, l.UserIdentifiers[k])
			dst.Channels = append(dst.Channels, l.Channels[k])
			dst.Statuses = append(dst.Statuses, l.Statuses[k])
			dst.Reasons = append(dst.Reasons, l.Reasons[k])
			dst.Errors = append(dst.Errors, l.Errors[k])
			dst.TemplateIdentifiers = append(dst.TemplateIdentifiers, l.TemplateIdentifier)
		}
		id := pw.sc.requestID
		if _, ok := done[id]; !ok {
			order = append(order, id)
		}
		done[id] = done[id] || pw.done
	}
	if n == 1 {
		for _, id := range order {
			chunks[0].requests = append(chunks[0].requests, id)
			chunks[0].done = append(chunks[0].done, done[id])
		}
		return chunks, nil
	}
	for c := range n {
		for id := range touched[c] {
			chunks[c].requests = append(chunks[c].requests, id)
			chunks[c].done = append(chunks[c].done, false)
		}
	}
	for _, id := range order {
		if done[id] {
			if finish == nil {
				finish = &writeChunk{}
			}
			finish.requests = append(finish.requests, id)
			finish.done = append(finish.done, true)
		}
	}
	return chunks, finish
}

// writeChunks writes each chunk in its own transaction, concurrently, then finish (the
// completions) once all have committed, and returns what the chunks inserted. A failed chunk
// fails the call; the retry rewrites only what is missing and then completes. Request rows
// are locked in id order (RecordDeliveredOfPages), so chunks never deadlock.
func (a *Service) writeChunks(ctx context.Context, chunks []*writeChunk, finish *writeChunk) ([]dbsqlc.InsertInboxRowsOfPagesRow, []dbsqlc.InsertMessageLogsOfPagesRow, error) {
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

// writeChunksYielding is writeChunks for a large call that yields to single sends (see
// pace.go): writeParallelism transactions at a time while no single send is being
// delivered in the process, and from the moment one is, one at a time, each after the
// rest the one before it owes. The check is made before each chunk, so a single send that
// arrives while a broadcast's slice is being written waits for the chunks already under
// way, not for the whole slice. Then finish. It returns what the chunks inserted and, if
// single sends are still being delivered, the rest the last paced chunk owes, which the
// caller takes once the rows are announced.
func (a *Service) writeChunksYielding(ctx context.Context, chunks []*writeChunk, finish *writeChunk) ([]dbsqlc.InsertInboxRowsOfPagesRow, []dbsqlc.InsertMessageLogsOfPagesRow, time.Duration, error) {
	var (
		mu      sync.Mutex // guards next, written, logged, owed and first
		next    int
		written []dbsqlc.InsertInboxRowsOfPagesRow
		logged  []dbsqlc.InsertMessageLogsOfPagesRow
		owed    time.Duration
		first   error
		// serial is held by a paced chunk through its rest and its write: paced chunks
		// are written one at a time.
		serial sync.Mutex
	)
	// take hands out the next chunk, paced, or, flat out, the next few merged into one
	// transaction of up to unpacedChunkRows rows.
	take := func(paced bool) *writeChunk {
		mu.Lock()
		defer mu.Unlock()
		if first != nil || next == len(chunks) {
			return nil
		}
		c := chunks[next]
		next++
		for !paced && next < len(chunks) && c.rows()+chunks[next].rows() <= unpacedChunkRows {
			c = merged(c, chunks[next])
			next++
		}
		return c
	}
	write := func(c *writeChunk, paced bool) error {
		if !paced {
			w, l, err := a.writeChunk(ctx, c)
			mu.Lock()
			defer mu.Unlock()
			written, logged = append(written, w...), append(logged, l...)
			return err
		}
		serial.Lock()
		defer serial.Unlock()
		mu.Lock()
		rest := owed
		mu.Unlock()
		a.rest(ctx, rest)
		start := time.Now()
		w, l, err := a.writeChunk(ctx, c)
		mu.Lock()
		defer mu.Unlock()
		written, logged = append(written, w...), append(logged, l...)
		owed = a.restAfter(time.Since(start))
		return err
	}
	var wg sync.WaitGroup
	for range min(writeParallelism, len(chunks)) {
		wg.Go(func() {
			for {
				paced := a.paced(time.Now())
				c := take(paced)
				if c == nil {
					return
				}
				err := write(c, paced)
				if a.pace.written != nil {
					a.pace.written()
				}
				if err != nil {
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if first != nil {
		return nil, nil, 0, first
	}
	if finish != nil {
		if _, _, err := a.writeChunk(ctx, finish); err != nil {
			return nil, nil, 0, err
		}
	}
	if !a.paced(time.Now()) {
		owed = 0
	}
	return written, logged, owed, nil
}

// unpacedChunkRows bounds the rows of one transaction of a yielding call written flat
// out: its chunks of about pacedChunkRows are merged up to it (fewer commits), and a
// single send arriving meanwhile waits for at most writeParallelism of them.
const unpacedChunkRows = 4 * pacedChunkRows

// rows counts the inbox and log rows of a chunk.
func (c *writeChunk) rows() int { return len(c.inbox.UserIds) + len(c.logs.UserIds) }

// merged is one transaction writing the rows of chunks a and b (which hold different
// users) and recording the progress of the requests of both.
func merged(a, b *writeChunk) *writeChunk {
	m := &writeChunk{logs: dbsqlc.InsertMessageLogsOfPagesParams{WorkflowID: a.logs.WorkflowID}}
	for _, c := range []*writeChunk{a, b} {
		in, l := &m.inbox, &m.logs
		in.AppIds = append(in.AppIds, c.inbox.AppIds...)
		in.UserIds = append(in.UserIds, c.inbox.UserIds...)
		in.RequestIds = append(in.RequestIds, c.inbox.RequestIds...)
		in.Titles = append(in.Titles, c.inbox.Titles...)
		in.Messages = append(in.Messages, c.inbox.Messages...)
		in.Icons = append(in.Icons, c.inbox.Icons...)
		in.Urls = append(in.Urls, c.inbox.Urls...)
		in.Datas = append(in.Datas, c.inbox.Datas...)
		in.Blocks = append(in.Blocks, c.inbox.Blocks...)
		in.CategoryIds = append(in.CategoryIds, c.inbox.CategoryIds...)
		l.AppIds = append(l.AppIds, c.logs.AppIds...)
		l.RequestIds = append(l.RequestIds, c.logs.RequestIds...)
		l.UserIds = append(l.UserIds, c.logs.UserIds...)
		l.UserIdentifiers = append(l.UserIdentifiers, c.logs.UserIdentifiers...)
		l.Channels = append(l.Channels, c.logs.Channels...)
		l.Statuses = append(l.Statuses, c.logs.Statuses...)
		l.Reasons = append(l.Reasons, c.logs.Reasons...)
		l.Errors = append(l.Errors, c.logs.Errors...)
		l.TemplateIdentifiers = append(l.TemplateIdentifiers, c.logs.TemplateIdentifiers...)
		for k, id := range c.requests {
			if !slices.Contains(m.requests, id) {
				m.requests = append(m.requests, id)
				m.done = append(m.done, c.done[k])
			}
		}
	}
	return m
}

// writeChunk writes one chunk in one transaction of three statements.
func (a *Service) writeChunk(ctx context.Context, c *writeChunk) (written []dbsqlc.InsertInboxRowsOfPagesRow, logged []dbsqlc.InsertMessageLogsOfPagesRow, err error) {
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
