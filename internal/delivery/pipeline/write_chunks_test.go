package pipeline

import (
	"testing"

	"github.com/google/uuid"
)

// Split writes: every row lands in exactly one chunk, a user's rows share a chunk, and no
// chunk completes a request — only finish does, after all chunks, so nobody sees a request
// completed while some of its rows are still being written.
func TestChunkWritesCompleteOnlyAfterEveryChunk(t *testing.T) {
	defer func(p int) { writeParallelism = p }(writeParallelism)
	writeParallelism = 3
	big, small := uuid.New(), uuid.New()
	page := func(req uuid.UUID, done bool, users ...int64) *pageWork {
		w := &pageWrites{}
		w.inbox.RequestID, w.logs.RequestID = req, req
		for _, u := range users {
			w.inboxRow(recipient{userID: u}, "", "", "", "", nil)
			w.log(recipient{userID: u}, "inApp", "delivered", "", "")
		}
		return &pageWork{sc: &sendContext{requestID: req}, w: w, done: done}
	}
	users := make([]int64, 900)
	for u := range users {
		users[u] = int64(u)
	}
	works := []*pageWork{page(big, true, users...), page(small, false, 7)}
	total, _, _ := callRows(works)
	chunks, finish := chunkWrites(works, chunkCount(total, false))
	if len(chunks) != 3 {
		t.Fatalf("%d chunks, want 3", len(chunks))
	}
	home := map[int64]int{}
	rows := 0
	for i, c := range chunks {
		rows += len(c.inbox.UserIds)
		for _, u := range append(c.inbox.UserIds, c.logs.UserIds...) {
			if h, ok := home[u]; ok && h != i {
				t.Fatalf("user %d in chunks %d and %d", u, h, i)
			}
			home[u] = i
		}
		for k, id := range c.requests {
			if c.done[k] {
				t.Errorf("chunk %d completes request %s", i, id)
			}
		}
	}
	if rows != 901 || len(home) != 900 {
		t.Errorf("%d rows over %d users, want 901 over 900", rows, len(home))
	}
	if finish == nil || len(finish.requests) != 1 || finish.requests[0] != big || !finish.done[0] || len(finish.inbox.UserIds) != 0 {
		t.Errorf("finish = %+v, want only the completion of the large request", finish)
	}
	// Small enough for one transaction: rows and completion together.
	one, fin := chunkWrites([]*pageWork{page(big, true, 1)}, chunkCount(2, false))
	if len(one) != 1 || fin != nil || !one[0].done[0] {
		t.Errorf("small call: %d chunks, finish %v", len(one), fin)
	}
}
