package inbox_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/testkit/inboxtest"
)

// checkCounters compares the maintained counters with counts over the rows.
func checkCounters(t *testing.T, d *db.DB, when string) {
	t.Helper()
	rows, err := d.Pool.Query(context.Background(), `
		SELECT u.identifier, COALESCE(c.total, 0), COALESCE(c.unread, 0),
		       (SELECT count(*) FROM notifications n WHERE n.user_id = u.id AND n.deleted_at IS NULL),
		       (SELECT count(*) FROM notifications n WHERE n.user_id = u.id AND n.deleted_at IS NULL AND n.seen_at IS NULL AND n.read_at IS NULL)
		FROM users u LEFT JOIN inbox_counters c ON c.user_id = u.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var user string
		var total, unread, realTotal, realUnread int64
		if err := rows.Scan(&user, &total, &unread, &realTotal, &realUnread); err != nil {
			t.Fatal(err)
		}
		if total != realTotal || unread != realUnread {
			t.Errorf("%s: %s counters total=%d unread=%d, rows say total=%d unread=%d", when, user, total, unread, realTotal, realUnread)
		}
	}
}

// The badge and total come from counters the triggers maintain; every way of changing the
// inbox, alone or concurrently, must keep them equal to the counts over the rows.
func TestCountersStayExact(t *testing.T) {
	d, appID, s, _ := setup(t)
	ctx := context.Background()
	users := []string{"ann", "ben", "cat"}
	ids := map[string][]int64{}
	for i, u := range users {
		ids[u] = inboxtest.Seed(t, d, appID, u, 30+10*i, nil)
	}
	checkCounters(t, d, "after seeding")

	changes := []inbox.Change{inbox.MarkSeen, inbox.MarkUnseen, inbox.MarkRead, inbox.MarkUnread, inbox.Click}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range 60 {
				u := users[r.IntN(len(users))]
				id := ids[u][r.IntN(len(ids[u]))]
				var err error
				switch k := r.IntN(10); {
				case k < 7:
					_, err = s.Apply(ctx, appID, u, id, changes[r.IntN(len(changes))])
				case k == 7:
					err = s.Delete(ctx, appID, u, id)
				case k == 8:
					_, err = s.MarkAllSeen(ctx, appID, u, &inbox.PageRef{Page: 1, Limit: 5})
				default:
					_, err = s.MarkAllRead(ctx, appID, u, &inbox.PageRef{Page: 2, Limit: 5})
				}
				if err != nil && err.Error() != "not_found: notification not found" {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	checkCounters(t, d, "after concurrent changes")

	if _, err := s.MarkAllDeleted(ctx, appID, "ben"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, "DELETE FROM notifications WHERE id = ANY($1)", ids["cat"][:5]); err != nil {
		t.Fatal(err)
	}
	checkCounters(t, d, "after deleting")

	page, err := s.List(ctx, appID, "ann", inbox.ListQuery{PageNo: 1, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var realUnread int64
	_ = d.Pool.QueryRow(ctx, "SELECT count(*) FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.identifier = 'ann' AND n.deleted_at IS NULL AND n.seen_at IS NULL AND n.read_at IS NULL").Scan(&realUnread)
	if page.UnreadCount != realUnread {
		t.Errorf("list unreadCount %d, rows %d", page.UnreadCount, realUnread)
	}
}
