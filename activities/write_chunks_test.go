package activities

import (
	"testing"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db/dbsqlc"
)

// Split writes: every row lands in exactly one chunk, a user's rows share a chunk, and no
// chunk completes a request — only finish does, after all chunks, so nobody sees a request
// completed while some of its rows are still being written.
func TestSplitByUserCompletesOnlyAfterEveryChunk(t *testing.T) {
	defer func(p int) { writeParallelism = p }(writeParallelism)
	writeParallelism = 3
	big, small := uuid.New(), uuid.New()
	var inbox dbsqlc.InsertInboxRowsOfPagesParams
	var logs dbsqlc.InsertMessageLogsOfPagesParams
	add := func(req uuid.UUID, user int64) {
		inbox.AppIds = append(inbox.AppIds, 1)
		inbox.UserIds = append(inbox.UserIds, user)
		inbox.RequestIds = append(inbox.RequestIds, req)
		for _, col := range []*[]string{&inbox.Titles, &inbox.Messages, &inbox.Icons, &inbox.Urls} {
			*col = append(*col, "")
		}
		inbox.Datas = append(inbox.Datas, nil)
		inbox.Blocks = append(inbox.Blocks, nil)
		inbox.CategoryIds = append(inbox.CategoryIds, 0)
		logs.AppIds = append(logs.AppIds, 1)
		logs.RequestIds = append(logs.RequestIds, req)
		logs.UserIds = append(logs.UserIds, user)
		for _, col := range []*[]string{&logs.UserIdentifiers, &logs.Channels, &logs.Statuses, &logs.Reasons, &logs.Errors, &logs.TemplateIdentifiers} {
			*col = append(*col, "")
		}
	}
	for u := range int64(900) {
		add(big, u)
	}
	add(small, 7)
	chunks, finish := splitByUser(inbox, logs, []uuid.UUID{big, small}, map[uuid.UUID]bool{big: true, small: false})
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
	one, fin := splitByUser(dbsqlc.InsertInboxRowsOfPagesParams{UserIds: []int64{1}}, dbsqlc.InsertMessageLogsOfPagesParams{}, []uuid.UUID{big}, map[uuid.UUID]bool{big: true})
	if len(one) != 1 || fin != nil || !one[0].done[0] {
		t.Errorf("small call: %d chunks, finish %v", len(one), fin)
	}
}
