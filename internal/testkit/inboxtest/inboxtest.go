// Package inboxtest fills inboxes for tests without running a send: it writes inbox rows
// the way the delivery activity does.
package inboxtest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/audience/users"
)

// Seed gives an app's user n notifications titled "<prefix> 0" … "<prefix> n-1" (created in
// that order, so the list shows them newest first), in the category with the given id when
// it is non-nil, and returns their ids in creation order. The user is created if needed.
func Seed(t testing.TB, d *db.DB, appID int64, user string, n int, category *int64) []int64 {
	t.Helper()
	ctx := context.Background()
	uids, err := users.Ensure(ctx, d.Queries, appID, []string{user})
	if err != nil {
		t.Fatalf("seed user %q: %v", user, err)
	}
	ids := make([]int64, 0, n)
	for i := 0; i < n; i++ {
		rows, err := d.InsertNotifications(ctx, dbsqlc.InsertNotificationsParams{
			AppID: appID, UserIds: uids, RequestID: uuid.New(), Title: fmt.Sprintf("%s %d", user, i),
			Message: "message", Data: json.RawMessage(`{"n":` + fmt.Sprint(i) + `}`), Blocks: json.RawMessage(`[]`), CategoryID: category,
		})
		if err != nil || len(rows) != 1 {
			t.Fatalf("seed notification: %v", err)
		}
		ids = append(ids, rows[0].ID)
	}
	return ids
}

// UserID returns the internal id of an app's user.
func UserID(t testing.TB, d *db.DB, appID int64, user string) int64 {
	t.Helper()
	id, err := users.ID(context.Background(), d.Queries, appID, user)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
