package v3_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/inboxtest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// notificationJSON is the Notification of docs/decisions.md#resources with Herald's additions.
type notificationJSON struct {
	ID                        int64
	Title, Message, Icon, URL string
	Blocks                    []any
	Data                      map[string]any
	State                     *string
	Category                  *struct{ ID int64 }
	CreatedAt                 string
	SeenAt, ReadAt, ClickedAt *string
}

func TestNotificationStateRoutes(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	id := itoa(f.seed(f.plain, "alice", 1)[0])
	do := func(method, suffix string, body any) notificationJSON {
		t.Helper()
		res := e.Do(method, "/v3/notifications/"+id+suffix, body, alice)
		var n notificationJSON
		if wantStatus(t, res, 200, method+" "+suffix) {
			res.JSON(t, &n)
			for _, key := range []string{"id", "title", "message", "icon", "url", "blocks", "data", "state", "category", "createdAt", "seenAt", "readAt", "clickedAt"} {
				if !strings.Contains(string(res.Body), `"`+key+`":`) {
					t.Errorf("%s %s: no %q in %s", method, suffix, key, res.Body)
				}
			}
		}
		return n
	}
	set := func(p *string) bool { return p != nil }
	n := do("GET", "", nil)
	if n.Title != "alice 0" || n.Data["n"] != float64(0) || !set(n.SeenAt) || set(n.ReadAt) || set(n.ClickedAt) || n.State != nil {
		t.Errorf("GET marks seen only: %+v", n)
	}
	if n = do("DELETE", "/views", nil); set(n.SeenAt) {
		t.Errorf("DELETE views: %+v", n)
	}
	if n = do("POST", "/views", nil); !set(n.SeenAt) {
		t.Errorf("POST views: %+v", n)
	}
	if n = do("POST", "/reads", nil); !set(n.ReadAt) || set(n.ClickedAt) {
		t.Errorf("POST reads: %+v", n)
	}
	first := *n.ReadAt
	if n = do("POST", "/click", nil); !set(n.ClickedAt) || *n.ReadAt != first {
		t.Errorf("click keeps the first readAt and sets clickedAt: %+v", n)
	}
	if n = do("DELETE", "/reads", nil); set(n.ReadAt) || set(n.ClickedAt) || !set(n.SeenAt) {
		t.Errorf("DELETE reads clears readAt and clickedAt: %+v", n)
	}
	if n = do("POST", "/click", nil); !set(n.ReadAt) || !set(n.ClickedAt) {
		t.Errorf("click sets readAt: %+v", n)
	}
	do("DELETE", "/reads", nil)
	if n = do("PUT", "/state", map[string]string{"state": "read"}); n.State == nil || *n.State != "read" || !set(n.ReadAt) {
		t.Errorf("state read sets readAt: %+v", n)
	}
	if n = do("PUT", "/state", map[string]string{"state": "clicked"}); *n.State != "clicked" || !set(n.ClickedAt) {
		t.Errorf("state clicked sets clickedAt: %+v", n)
	}
	if n = do("PUT", "/state", map[string]string{"state": "snoozed"}); *n.State != "snoozed" {
		t.Errorf("free state: %+v", n)
	}
	for range 2 { // deleting twice is fine
		res := e.Do("DELETE", "/v3/notifications/"+id, nil, alice)
		if wantStatus(t, res, 200, "delete") && string(res.Body) != `{"message":"notification deleted","statusCode":200}` {
			t.Errorf("delete answer %s", res.Body)
		}
	}
	wantError(t, e.Do("GET", "/v3/notifications/"+id, nil, alice), 404, "notification not found", "get after delete")
	wantError(t, e.Do("POST", "/v3/notifications/"+id+"/reads", nil, alice), 404, "notification not found", "read after delete")
}

func TestNotificationsOfOthersAreNotFound(t *testing.T) {
	f := newFixture(t)
	e := f.e
	mine := itoa(f.seed(f.plain, "alice", 1)[0])
	f.seed(f.plain, "bob", 1)
	otherApp := itoa(f.seed(f.other, "alice", 1)[0])
	routes := []struct{ method, suffix string }{
		{"GET", ""}, {"DELETE", ""}, {"POST", "/click"}, {"POST", "/views"}, {"DELETE", "/views"},
		{"POST", "/reads"}, {"DELETE", "/reads"}, {"PUT", "/state"},
	}
	for _, r := range routes {
		body := map[string]string{"state": "x"}
		wantError(t, e.Do(r.method, "/v3/notifications/"+mine+r.suffix, body, userH(f.plain, "bob")), 404, "notification not found", "bob on alice's: "+r.method+r.suffix)
		wantError(t, e.Do(r.method, "/v3/notifications/"+otherApp+r.suffix, body, userH(f.plain, "alice")), 404, "notification not found", "another app's: "+r.method+r.suffix)
		wantError(t, e.Do(r.method, "/v3/notifications/999999"+r.suffix, body, userH(f.plain, "alice")), 404, "notification not found", "unknown: "+r.method+r.suffix)
	}
	// Nothing of it changed alice's notification or the other app's.
	for _, h := range []stacktest.Headers{userH(f.plain, "alice"), userH(f.other, "alice")} {
		res := e.Do("GET", "/v3/notifications", nil, h)
		if !strings.Contains(string(res.Body), `"unreadCount":1`) || !strings.Contains(string(res.Body), `"totalCount":1`) {
			t.Errorf("inbox changed by others: %s", res.Body)
		}
	}
	// Bulk marks of bob leave alice alone.
	for _, path := range []string{"markAllNotificationsAsRead", "markAllNotificationsAsSeen", "markAllNotificationsAsDeleted"} {
		wantStatus(t, e.Do("POST", "/v3/notifications/"+path, nil, userH(f.plain, "bob")), 200, path)
	}
	if res := e.Do("GET", "/v3/notifications", nil, userH(f.plain, "alice")); !strings.Contains(string(res.Body), `"unreadCount":1`) {
		t.Errorf("bob's bulk marks reached alice: %s", res.Body)
	}
}

func TestInboxBadInput(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	id := itoa(f.seed(f.plain, "alice", 1)[0])
	cases := []struct {
		method, path string
		body         any
		want         []string
	}{
		{"GET", "/v3/notifications?limit=21", nil, []string{"limit must not be greater than 20"}},
		{"GET", "/v3/notifications?pageNo=x&limit=0&filter=new&category=" + strings.Repeat("c", 256), nil, []string{
			"pageNo must be an integer number", "limit must not be less than 1",
			"filter must be one of the following values: unread, read, seen, unseen, interacted", "category must be at most 255 characters"}},
		{"GET", "/v3/notifications/abc", nil, []string{"notificationId must be a positive integer number"}},
		{"POST", "/v3/notifications/0/reads", nil, []string{"notificationId must be a positive integer number"}},
		{"DELETE", "/v3/notifications/99999999999999999999", nil, []string{"notificationId must be a positive integer number"}},
		{"PUT", "/v3/notifications/" + id + "/state", `[]`, []string{"body must be a JSON object"}},
		{"PUT", "/v3/notifications/" + id + "/state", `{}`, []string{"state must be a string"}},
		{"PUT", "/v3/notifications/" + id + "/state", `{"state":5,"other":1}`, []string{"state must be a string"}},
		{"PUT", "/v3/notifications/" + id + "/state", `{"state":""}`, []string{"state should not be empty"}},
		{"PUT", "/v3/notifications/" + id + "/state", map[string]string{"state": strings.Repeat("é", 65)}, []string{"state must be at most 64 characters"}},
		{"POST", "/v3/notifications/markAllNotificationsAsSeen?page=1", nil, []string{"page and limit must be given together"}},
		{"POST", "/v3/notifications/markAllNotificationsAsRead?page=0&limit=21", nil, []string{"page must not be less than 1", "limit must not be greater than 20"}},
		{"POST", "/v3/notifications/markAllNotificationsAsRead?limit=5", nil, []string{"page and limit must be given together"}},
	}
	for _, tc := range cases {
		wantProblems(t, e.Do(tc.method, tc.path, tc.body, alice), tc.method+" "+tc.path, tc.want...)
	}
	res := e.Do("PUT", "/v3/notifications/"+id+"/state", `{"state":"`+strings.Repeat("é", 64)+`"}`, alice)
	wantStatus(t, res, 200, "64-character state")
	// None of the refused requests changed the notification beyond that state.
	res = e.Do("GET", "/v3/notifications", nil, alice)
	if !strings.Contains(string(res.Body), `"unreadCount":1`) || !strings.Contains(string(res.Body), `"readAt":null`) {
		t.Errorf("bad requests changed the inbox: %s", res.Body)
	}
}

func TestListFiltersAndUserIdentifier(t *testing.T) {
	f := newFixture(t)
	e := f.e
	cat := f.category(f.plain, "billing")
	ids := f.seed(f.plain, "alice", 3)
	billed := inboxtest.Seed(t, f.e.Stack.DB, f.plain.AppID, "alice", 1, &cat)[0]
	f.seed(f.plain, "bob", 5)
	wantStatus(t, e.Do("POST", "/v3/notifications/"+itoa(ids[0])+"/reads", nil, userH(f.plain, "alice")), 200, "read")
	total := func(query string, h stacktest.Headers) (int, int) {
		res := e.Do("GET", "/v3/notifications?"+query, nil, h)
		var page struct {
			UnreadCount int
			Pagination  struct{ TotalCount int }
			Data        []notificationJSON
		}
		if wantStatus(t, res, 200, query) {
			res.JSON(t, &page)
		}
		return page.Pagination.TotalCount, len(page.Data)
	}
	alice := userH(f.plain, "alice")
	for query, want := range map[string]int{
		"":                             4,
		"filter=unread":                3,
		"filter=read":                  1,
		"filter=unseen":                4,
		"filter=seen":                  0,
		"filter=interacted":            0,
		"category=billing":             1,
		"category=billing&filter=read": 0,
		"userIdentifier=bob":           4, // ignored with user credentials
		"category=nothing":             0,
		"pageNo=2&limit=3":             4,
	} {
		if got, _ := total(query, alice); got != want {
			t.Errorf("%q: totalCount %d, want %d", query, got, want)
		}
	}
	if _, n := total("pageNo=2&limit=3", alice); n != 1 {
		t.Errorf("page 2 of 3 holds %d items, want 1", n)
	}
	if got, _ := total("userIdentifier=bob", appH(f.plain)); got != 5 {
		t.Errorf("app credentials read bob's inbox of %d, want 5", got)
	}
	res := e.Do("GET", "/v3/notifications?category=billing", nil, alice)
	if !strings.Contains(string(res.Body), `"category":{"id":`+itoa(cat)+`,"identifier":"billing","name":"billing"}`) || !strings.Contains(string(res.Body), `"id":`+itoa(billed)) {
		t.Errorf("category in list: %s", res.Body)
	}
}

func TestBulkMarkRoutes(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	f.seed(f.plain, "alice", 20)
	res := e.Do("POST", "/v3/notifications/markAllNotificationsAsSeen", nil, alice)
	if wantStatus(t, res, 200, "deprecated seen") && (string(res.Body) != `{"count":15,"unreadCount":5}` || res.Header.Get("Deprecation") != "true") {
		t.Errorf("deprecated seen: %s, Deprecation %q", res.Body, res.Header.Get("Deprecation"))
	}
	res = e.Do("POST", "/v3/notifications/markAllNotificationsAsSeen?page=2&limit=10", nil, alice)
	if wantStatus(t, res, 200, "page seen") && (string(res.Body) != `{"count":5,"unreadCount":0}` || res.Header.Get("Deprecation") != "") {
		t.Errorf("page seen: %s", res.Body)
	}
	if res = e.Do("POST", "/v3/notifications/markAllNotificationsAsRead?page=1&limit=4", nil, alice); string(res.Body) != `{"count":4,"unreadCount":0}` {
		t.Errorf("page read: %s", res.Body)
	}
	if res = e.Do("POST", "/v3/notifications/markAllNotificationsAsRead", nil, alice); string(res.Body) != `{"count":16,"unreadCount":0}` {
		t.Errorf("all read: %s", res.Body)
	}
	if res = e.Do("POST", "/v3/notifications/markAllNotificationsAsRead", nil, alice); string(res.Body) != `{"count":0,"unreadCount":0}` {
		t.Errorf("all read again: %s", res.Body)
	}
	if res = e.Do("POST", "/v3/notifications/markAllNotificationsAsDeleted", nil, alice); string(res.Body) != `{"count":20,"unreadCount":0}` {
		t.Errorf("delete all: %s", res.Body)
	}
	if res = e.Do("GET", "/v3/notifications", nil, alice); !strings.Contains(string(res.Body), `"totalCount":0`) {
		t.Errorf("inbox after delete all: %s", res.Body)
	}
}

func TestUnreadCountExactUnderConcurrentRequests(t *testing.T) {
	f := newFixture(t)
	e, alice := f.e, userH(f.plain, "alice")
	ids := f.seed(f.plain, "alice", 30)
	var wg sync.WaitGroup
	fire := func(method, path string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res := e.Do(method, path, nil, alice); res.Status != 200 {
				t.Errorf("%s %s: %d %s", method, path, res.Status, res.Body)
			}
		}()
	}
	for i, id := range ids[:25] {
		for range 3 {
			switch {
			case i < 10:
				fire("POST", "/v3/notifications/"+itoa(id)+"/reads")
			case i < 20:
				fire("POST", "/v3/notifications/"+itoa(id)+"/views")
			default:
				fire("DELETE", "/v3/notifications/"+itoa(id))
			}
		}
	}
	wg.Wait()
	res := e.Do("GET", "/v3/notifications", nil, alice)
	if !strings.Contains(string(res.Body), `"unreadCount":5`) || !strings.Contains(string(res.Body), `"totalCount":25`) {
		t.Errorf("after concurrent marks: %s", res.Body)
	}
}
