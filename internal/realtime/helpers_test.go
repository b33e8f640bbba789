package realtime_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) { stacktest.Main(m) }

// newEnv starts a stack and waits for its realtime listener, so the resync that follows
// the first LISTEN comes before the test's clients connect.
func newEnv(t *testing.T, o stacktest.Options) *stacktest.Env {
	t.Helper()
	e := stacktest.New(t, o)
	select {
	case <-e.Stack.Realtime.Ready():
	case <-time.After(realtimetest.WaitTimeout):
		t.Fatal("the realtime listener never listened")
	}
	return e
}

// userID returns the internal id of a user of the test app, creating it.
func userID(t *testing.T, e *stacktest.Env, appID int64, identifier string) int64 {
	t.Helper()
	var id int64
	err := e.Stack.DB.Pool.QueryRow(context.Background(), `
		INSERT INTO users (app_id, identifier) VALUES ($1, $2)
		ON CONFLICT (app_id, identifier) DO UPDATE SET updated_at = now() RETURNING id`, appID, identifier).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// insertNotification writes an inbox row directly (the send path has its own tests) and
// returns its id.
func insertNotification(t *testing.T, e *stacktest.Env, appID, user int64, title, message string) int64 {
	t.Helper()
	var id int64
	err := e.Stack.DB.Pool.QueryRow(context.Background(), `
		INSERT INTO notifications (app_id, user_id, request_id, title, message, data)
		VALUES ($1, $2, gen_random_uuid(), $3, $4, '{"k":1}') RETURNING id`, appID, user, title, message).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func userQuery(e *stacktest.Env, user string) url.Values {
	return url.Values{"apiKey": {e.App.APIKey}, "userId": {user}}
}

func mustJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("not a JSON object: %q", s)
	}
	return m
}
