package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// logEntry is a message log row as the tests look at it.
type logEntry struct {
	Status, Reason, Error, Provider, WorkflowID, ProviderMessageID string
	Attempts                                                       int
}

// messageLogs returns a request's message log by "user/channel".
func messageLogs(t *testing.T, e *stacktest.Env, requestID string) map[string]logEntry {
	t.Helper()
	rows, err := e.Stack.DB.Pool.Query(context.Background(), `
		SELECT user_identifier || '/' || channel, status, coalesce(reason, ''), coalesce(error, ''), coalesce(provider, ''),
		       workflow_id, coalesce(provider_message_id, ''), attempts
		FROM message_logs WHERE request_id = $1`, requestID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]logEntry{}
	for rows.Next() {
		var k string
		var l logEntry
		if err := rows.Scan(&k, &l.Status, &l.Reason, &l.Error, &l.Provider, &l.WorkflowID, &l.ProviderMessageID, &l.Attempts); err != nil {
			t.Fatal(err)
		}
		out[k] = l
	}
	return out
}

// waitForLogs waits until every named log row has left the queued state.
func waitForLogs(t *testing.T, e *stacktest.Env, requestID string, keys ...string) map[string]logEntry {
	t.Helper()
	var logs map[string]logEntry
	e.Eventually(60*time.Second, fmt.Sprintf("message log of %v settled", keys), func() bool {
		logs = messageLogs(t, e, requestID)
		for _, k := range keys {
			if l, ok := logs[k]; !ok || l.Status == "queued" {
				return false
			}
		}
		return true
	})
	return logs
}

// sendNotification posts a send and returns its requestId.
func sendNotification(t *testing.T, e *stacktest.Env, body string) string {
	t.Helper()
	res := e.Do("POST", "/v3/notifications", body, e.AppHeaders())
	if res.Status != 202 {
		t.Fatalf("send: %d %s", res.Status, res.Body)
	}
	return res.Map(t)["requestId"].(string)
}

func smtpInstance(t *testing.T, e *stacktest.Env, srv *smtptest.Server) channels.Instance {
	t.Helper()
	cfg, _ := json.Marshal(map[string]any{"host": srv.Host, "port": srv.Port, "security": "none", "from": "noreply@herald.test", "fromName": "Herald Test"})
	inst, err := e.Stack.Channels.CreateInstance(context.Background(), e.App.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "test smtp", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func webhookInstance(t *testing.T, e *stacktest.Env, url, secret string) channels.Instance {
	t.Helper()
	cfg, _ := json.Marshal(map[string]any{"url": url, "secret": secret})
	inst, err := e.Stack.Channels.CreateInstance(context.Background(), e.App.AppID, "webhook", channels.InstanceInput{Provider: "webhook", Name: "test hook", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func sql(t *testing.T, e *stacktest.Env, q string, args ...any) {
	t.Helper()
	if _, err := e.Stack.DB.Pool.Exec(context.Background(), q, args...); err != nil {
		t.Fatal(err)
	}
}
