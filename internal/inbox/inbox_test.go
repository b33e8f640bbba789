package inbox_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/inbox"
	"github.com/heraldhq/herald/internal/inbox/events"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/inboxtest"
)

// recorder keeps every published event.
type recorder struct {
	mu  sync.Mutex
	evs []events.Event
}

func (r *recorder) Publish(_ context.Context, evs ...events.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = append(r.evs, evs...)
}

func (r *recorder) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.evs))
	for i, e := range r.evs {
		out[i] = e.Kind
	}
	return out
}

// ids counts how often each notification id was announced with an event kind.
func (r *recorder) ids(kind string) map[int64]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[int64]int{}
	for _, e := range r.evs {
		if e.Kind == kind {
			for _, id := range e.NotificationIDs {
				out[id]++
			}
		}
	}
	return out
}

func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.evs = nil
}

func setup(t *testing.T) (*db.DB, int64, *inbox.Service, *recorder) {
	t.Helper()
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	creds, err := apps.NewService(d, box).Create(context.Background(), "app")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	return d, creds.AppID, inbox.NewService(d, rec), rec
}

func TestChangesAreIdempotentAndAnnouncedOnce(t *testing.T) {
	d, appID, s, rec := setup(t)
	ctx := context.Background()
	id := inboxtest.Seed(t, d, appID, "alice", 1, nil)[0]
	state := func(v string) inbox.Change {
		c, err := inbox.ParseStateChange([]byte(`{"state":"` + v + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	steps := []struct {
		name   string
		change inbox.Change
		want   []string
	}{
		{"seen", inbox.MarkSeen, []string{events.NotificationSeen}},
		{"seen again", inbox.MarkSeen, nil},
		{"read", inbox.MarkRead, []string{events.NotificationRead}},
		{"read again", inbox.MarkRead, nil},
		{"click when read", inbox.Click, []string{events.NotificationInteracted}},
		{"click again", inbox.Click, nil},
		{"unread clears read and clicked", inbox.MarkUnread, []string{events.NotificationInteracted}},
		{"unread again", inbox.MarkUnread, nil},
		{"click when unread", inbox.Click, []string{events.NotificationRead, events.NotificationInteracted}},
		{"unseen", inbox.MarkUnseen, []string{events.NotificationInteracted}},
		{"unseen again", inbox.MarkUnseen, nil},
		{"state archived", state("archived"), []string{events.NotificationInteracted}},
		{"same state", state("archived"), nil},
		{"state seen sets seenAt", state("seen"), []string{events.NotificationSeen, events.NotificationInteracted}},
	}
	for _, st := range steps {
		rec.reset()
		if _, err := s.Apply(ctx, appID, "alice", id, st.change); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := rec.kinds(); !slices.Equal(got, st.want) {
			t.Errorf("%s: events %v, want %v", st.name, got, st.want)
		}
	}
	n, err := s.Get(ctx, appID, "alice", id)
	if err != nil {
		t.Fatal(err)
	}
	if n.SeenAt == nil || n.ReadAt == nil || n.ClickedAt == nil || n.State == nil || *n.State != "seen" {
		t.Errorf("final flags: %+v", n)
	}
}

func TestUnreadCountStaysExactUnderConcurrentMarks(t *testing.T) {
	d, appID, s, rec := setup(t)
	ctx := context.Background()
	ids := inboxtest.Seed(t, d, appID, "alice", 40, nil)
	unread := func() int64 {
		p, err := s.List(ctx, appID, "alice", inbox.ListQuery{PageNo: 1, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		return p.UnreadCount
	}
	run := func(jobs []func() error) {
		var wg sync.WaitGroup
		errs := make(chan error, len(jobs))
		for _, job := range jobs {
			wg.Add(1)
			go func() { defer wg.Done(); errs <- job() }()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	// Phase 1: half of the inbox is read, each notification by four concurrent requests,
	// while bulk reads of the pages run alongside on the other half's neighbours.
	var jobs []func() error
	for _, id := range ids[:20] {
		for range 4 {
			jobs = append(jobs, func() error { _, err := s.Apply(ctx, appID, "alice", id, inbox.MarkRead); return err })
		}
	}
	// Pages 2 and 3 of 10 (newest first) are ids[10:30]; page 3 is ids[10:20].
	for range 3 {
		jobs = append(jobs, func() error {
			_, err := s.MarkAllRead(ctx, appID, "alice", &inbox.PageRef{Page: 3, Limit: 10})
			return err
		})
	}
	run(jobs)
	if got := unread(); got != 20 {
		t.Fatalf("after reading 20 of 40: unreadCount %d", got)
	}
	reads := rec.ids(events.NotificationRead)
	for _, id := range ids[:20] {
		if reads[id] != 1 {
			t.Errorf("notification %d announced read %d times", id, reads[id])
		}
	}
	// Phase 2: everything is marked seen by single, page and deprecated bulk requests at once.
	jobs = nil
	for _, id := range ids {
		jobs = append(jobs, func() error { _, err := s.Apply(ctx, appID, "alice", id, inbox.MarkSeen); return err })
	}
	for page := 1; page <= 2; page++ {
		for range 3 {
			jobs = append(jobs, func() error {
				_, err := s.MarkAllSeen(ctx, appID, "alice", &inbox.PageRef{Page: page, Limit: 20})
				return err
			}, func() error { _, err := s.MarkAllSeen(ctx, appID, "alice", nil); return err })
		}
	}
	run(jobs)
	if got := unread(); got != 0 {
		t.Fatalf("after marking all seen: unreadCount %d", got)
	}
	seen := rec.ids(events.NotificationSeen)
	for _, id := range ids {
		if seen[id] != 1 {
			t.Errorf("notification %d announced seen %d times", id, seen[id])
		}
	}
}

func TestListFilters(t *testing.T) {
	d, appID, s, _ := setup(t)
	ctx := context.Background()
	cat, err := d.EnsureCategory(ctx, dbsqlc.EnsureCategoryParams{AppID: appID, Identifier: "billing"})
	if err != nil {
		t.Fatal(err)
	}
	plain := inboxtest.Seed(t, d, appID, "alice", 4, nil)
	billed := inboxtest.Seed(t, d, appID, "alice", 2, &cat)
	inboxtest.Seed(t, d, appID, "bob", 3, &cat)
	apply := func(id int64, c inbox.Change) {
		if _, err := s.Apply(ctx, appID, "alice", id, c); err != nil {
			t.Fatal(err)
		}
	}
	apply(plain[0], inbox.MarkRead)
	apply(plain[1], inbox.MarkSeen)
	apply(plain[2], inbox.Click)
	stateChange, _ := inbox.ParseStateChange([]byte(`{"state":"archived"}`))
	apply(billed[0], stateChange)
	cases := []struct {
		filter, category string
		want             []int64 // newest first
	}{
		{"", "", []int64{billed[1], billed[0], plain[3], plain[2], plain[1], plain[0]}},
		{inbox.FilterUnread, "", []int64{billed[1], billed[0], plain[3], plain[1]}},
		{inbox.FilterRead, "", []int64{plain[2], plain[0]}},
		{inbox.FilterSeen, "", []int64{plain[1]}},
		{inbox.FilterUnseen, "", []int64{billed[1], billed[0], plain[3], plain[2], plain[0]}},
		{inbox.FilterInteracted, "", []int64{billed[0], plain[2]}},
		{"", "billing", []int64{billed[1], billed[0]}},
		{inbox.FilterInteracted, "billing", []int64{billed[0]}},
		{"", "no-such-category", nil},
	}
	for _, tc := range cases {
		p, err := s.List(ctx, appID, "alice", inbox.ListQuery{PageNo: 1, Limit: 20, Filter: tc.filter, Category: tc.category})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, n := range p.Data {
			got = append(got, n.ID)
		}
		if !slices.Equal(got, tc.want) || p.Pagination.TotalCount != int64(len(tc.want)) {
			t.Errorf("filter %q category %q: ids %v total %d, want %v", tc.filter, tc.category, got, p.Pagination.TotalCount, tc.want)
		}
		// The badge ignores the filters: neither seen nor read = plain[3], billed[0], billed[1].
		if p.UnreadCount != 3 {
			t.Errorf("filter %q: unreadCount %d, want 3", tc.filter, p.UnreadCount)
		}
	}
	if _, err := s.List(ctx, appID, "alice", inbox.ListQuery{PageNo: 1, Limit: 20, Filter: "bogus"}); herald.ErrorCode(err) != herald.EINVALID {
		t.Errorf("unknown filter: %v", err)
	}
}

func TestBulkMarks(t *testing.T) {
	d, appID, s, rec := setup(t)
	ctx := context.Background()
	ids := inboxtest.Seed(t, d, appID, "alice", 20, nil)
	other := inboxtest.Seed(t, d, appID, "bob", 2, nil)

	// The deprecated form marks the newest 15 unseen: ids[5:20].
	res, err := s.MarkAllSeen(ctx, appID, "alice", nil)
	if err != nil || res.Count != 15 || res.UnreadCount != 5 {
		t.Fatalf("first 15 unseen: %+v %v", res, err)
	}
	if got := rec.ids(events.NotificationSeen); len(got) != 15 || got[ids[4]] != 0 || got[ids[5]] != 1 {
		t.Errorf("seen events %v", got)
	}
	// Page 2 of 8 (newest first) is ids[4:12]; only ids[4] is still unseen.
	if res, err = s.MarkAllSeen(ctx, appID, "alice", &inbox.PageRef{Page: 2, Limit: 8}); err != nil || res.Count != 1 || res.UnreadCount != 4 {
		t.Fatalf("page 2 seen: %+v %v", res, err)
	}
	if res, err = s.MarkAllRead(ctx, appID, "alice", &inbox.PageRef{Page: 1, Limit: 3}); err != nil || res.Count != 3 {
		t.Fatalf("page 1 read: %+v %v", res, err)
	}
	rec.reset()
	if res, err = s.MarkAllRead(ctx, appID, "alice", nil); err != nil || res.Count != 17 || res.UnreadCount != 0 {
		t.Fatalf("all read: %+v %v", res, err)
	}
	if got := rec.kinds(); !slices.Equal(got, []string{events.AllNotificationRead}) {
		t.Errorf("all read events %v", got)
	}
	rec.reset()
	if res, err = s.MarkAllRead(ctx, appID, "alice", nil); err != nil || res.Count != 0 || len(rec.kinds()) != 0 {
		t.Errorf("all read again: %+v %v, events %v", res, err, rec.kinds())
	}
	if res, err = s.MarkAllDeleted(ctx, appID, "alice"); err != nil || res.Count != 20 {
		t.Fatalf("delete all: %+v %v", res, err)
	}
	if p, _ := s.List(ctx, appID, "alice", inbox.ListQuery{PageNo: 1, Limit: 10}); len(p.Data) != 0 || p.Pagination.TotalCount != 0 {
		t.Errorf("inbox after delete all: %+v", p)
	}
	// Bob's inbox is untouched by all of it.
	p, _ := s.List(ctx, appID, "bob", inbox.ListQuery{PageNo: 1, Limit: 10})
	if len(p.Data) != 2 || p.UnreadCount != 2 || p.Data[0].ID != other[1] {
		t.Errorf("bob's inbox changed: %+v", p)
	}
	// A user who does not exist has nothing to mark.
	if res, err = s.MarkAllRead(ctx, appID, "nobody", nil); err != nil || res.Count != 0 {
		t.Errorf("unknown user: %+v %v", res, err)
	}
}

func TestDeleteIsIdempotentAndScoped(t *testing.T) {
	d, appID, s, rec := setup(t)
	ctx := context.Background()
	id := inboxtest.Seed(t, d, appID, "alice", 1, nil)[0]
	inboxtest.Seed(t, d, appID, "bob", 1, nil)
	if err := s.Delete(ctx, appID, "bob", id); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("bob deletes alice's notification: %v", err)
	}
	for range 2 {
		if err := s.Delete(ctx, appID, "alice", id); err != nil {
			t.Fatal(err)
		}
	}
	if got := rec.kinds(); !slices.Equal(got, []string{events.NotificationDeleted}) {
		t.Errorf("events %v", got)
	}
	if _, err := s.Get(ctx, appID, "alice", id); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("get after delete: %v", err)
	}
	if _, err := s.Apply(ctx, appID, "alice", id, inbox.MarkRead); herald.ErrorCode(err) != herald.ENOTFOUND {
		t.Errorf("mark read after delete: %v", err)
	}
}

// Walking the pages at several limits, with and without a filter and a category, yields
// every selected item once, newest first (page 1 and later pages use different statements).
func TestListPagesCoverEveryItemOnce(t *testing.T) {
	d, appID, s, _ := setup(t)
	ctx := context.Background()
	cat, err := d.EnsureCategory(ctx, dbsqlc.EnsureCategoryParams{AppID: appID, Identifier: "billing"})
	if err != nil {
		t.Fatal(err)
	}
	plain := inboxtest.Seed(t, d, appID, "alice", 23, nil)
	billed := inboxtest.Seed(t, d, appID, "alice", 9, &cat)
	all := append(slices.Clone(plain), billed...)
	slices.Reverse(all)
	newestBilled := slices.Clone(billed)
	slices.Reverse(newestBilled)
	for _, tc := range []struct {
		filter, category string
		want             []int64
	}{{"", "", all}, {inbox.FilterUnread, "", all}, {"", "billing", newestBilled}, {inbox.FilterUnseen, "billing", newestBilled}} {
		for _, limit := range []int{1, 4, 7, 20} {
			var got []int64
			for pageNo := 1; ; pageNo++ {
				p, err := s.List(ctx, appID, "alice", inbox.ListQuery{PageNo: pageNo, Limit: limit, Filter: tc.filter, Category: tc.category})
				if err != nil {
					t.Fatal(err)
				}
				if p.Pagination.TotalCount != int64(len(tc.want)) {
					t.Fatalf("%+v limit %d: total %d, want %d", tc, limit, p.Pagination.TotalCount, len(tc.want))
				}
				if len(p.Data) == 0 {
					break
				}
				for _, n := range p.Data {
					got = append(got, n.ID)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("filter %q category %q limit %d: got %v, want %v", tc.filter, tc.category, limit, got, tc.want)
			}
		}
	}
	for _, q := range []inbox.ListQuery{{PageNo: 0, Limit: 5}, {PageNo: 1, Limit: 0}, {PageNo: 1, Limit: inbox.MaxLimit + 1}} {
		if _, err := s.List(ctx, appID, "alice", q); herald.ErrorCode(err) != herald.EINVALID {
			t.Errorf("%+v: got %v, want an invalid-input error", q, err)
		}
	}
}
