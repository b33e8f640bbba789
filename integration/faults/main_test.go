// Package faults holds the slow fault-injection tests of issue 11: real `herald api` and
// `herald worker` processes, killed with SIGKILL, stopped with SIGTERM and restarted, and
// a Postgres cluster restarted under load. They run with `make test-faults` (which
// `make test` runs too) and are skipped by a plain `go test ./...`. Each test prints the
// figures it measured (go test -v); docs/reliability.md records the last run.
package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) {
	code := proctest.Main(m)
	stacktest.StopShared()
	os.Exit(code)
}

// slow skips the test unless HERALD_FAULTS is set (make test-faults sets it).
func slow(t *testing.T) {
	t.Helper()
	if os.Getenv("HERALD_FAULTS") == "" || testing.Short() {
		t.Skip("fault test with real processes: run `make test-faults` (or set HERALD_FAULTS=1)")
	}
}

// client posts to the API of a proctest stack with an app's credentials.
type client struct {
	t     testing.TB
	base  string
	creds apps.Credentials
	http  *http.Client
}

func newClient(t testing.TB, s *proctest.Stack, creds apps.Credentials, timeout time.Duration) *client {
	return &client{t: t, base: s.BaseURL, creds: creds, http: &http.Client{Timeout: timeout}}
}

func (c *client) headers(req *http.Request) {
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-SERVICE-API-KEY", c.creds.APIKey)
	req.Header.Set("X-SERVICE-API-SECRET", c.creds.APISecret)
}

// do sends a request and returns the status and body, or the transport error.
func (c *client) do(method, path string, body []byte, extra map[string]string) (int, []byte, error) {
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	c.headers(req)
	for k, v := range extra {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	return res.StatusCode, out, err
}

// send posts a send request that must be accepted and returns its requestId.
func (c *client) send(body []byte) string {
	c.t.Helper()
	status, out, err := c.do("POST", "/v3/notifications", body, nil)
	if err != nil || status != 202 {
		c.t.Fatalf("send: %d %v %s", status, err, out)
	}
	var r struct{ RequestID string }
	if err := json.Unmarshal(out, &r); err != nil || r.RequestID == "" {
		c.t.Fatalf("send answered %s", out)
	}
	return r.RequestID
}

// inlineSend is a send body naming n inline recipients u0…u(n-1), each with what
// profile(i) returns (or as plain identifiers when profile is nil).
func inlineSend(title string, n int, profile func(i int) map[string]any) []byte {
	rs := make([]any, n)
	for i := range rs {
		id := fmt.Sprintf("u%d", i)
		if profile == nil {
			rs[i] = id
			continue
		}
		p := profile(i)
		p["identifier"] = id
		rs[i] = p
	}
	b, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": title}, "sendTo": map[string]any{"recipients": rs}})
	return b
}

// retriedActivities counts the activities of the run carrying a request (the latest run
// of its workflow) that completed only on a later attempt: Temporal records a retried
// activity once, when it ends, with its attempt number. An activity cut short by a dead
// worker shows up here; one that finished on a worker shutting down gracefully does not.
func retriedActivities(t *testing.T, s *proctest.Stack, requestID string) (retried, maxAttempt int) {
	t.Helper()
	var wf string
	if err := s.Local.DB.Pool.QueryRow(context.Background(), "SELECT coalesce(workflow_id, '') FROM notification_requests WHERE id = $1", requestID).Scan(&wf); err != nil {
		t.Fatal(err)
	}
	it := s.Local.Temporal.GetWorkflowHistory(context.Background(), wf, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatalf("history of %s: %v", wf, err)
		}
		if ev.GetEventType() == enums.EVENT_TYPE_ACTIVITY_TASK_STARTED {
			if a := int(ev.GetActivityTaskStartedEventAttributes().GetAttempt()); a > 1 {
				retried++
				maxAttempt = max(maxAttempt, a)
				t.Logf("activity retried (attempt %d) after: %v", a, ev.GetActivityTaskStartedEventAttributes().GetLastFailure())
			}
		}
	}
	return retried, maxAttempt
}

// activityJustStarted reports whether the run carrying a request has an activity of the
// given name that started on a worker less than 150 ms ago: a fault injected now lands
// in the middle of it (a DeliverBatch of 1,000 recipients takes a hundred ms or more).
func activityJustStarted(t *testing.T, s *proctest.Stack, requestID, name string) bool {
	t.Helper()
	return activityStartedWithin(t, s, requestID, name, 0, 150*time.Millisecond)
}

// activityStartedWithin is activityJustStarted with the activity's age between least and
// most. A SIGTERM meant to find an activity running waits a few tens of ms after its start:
// Temporal marks an activity started when it hands the task to a poller, and the Go SDK
// drops tasks it has polled but not begun when the worker stops (temporalio/sdk-go#1197),
// which Temporal then retries after the heartbeat timeout.
func activityStartedWithin(t *testing.T, s *proctest.Stack, requestID, name string, least, most time.Duration) bool {
	t.Helper()
	var wf string
	if err := s.Local.DB.Pool.QueryRow(context.Background(), "SELECT coalesce(workflow_id, '') FROM notification_requests WHERE id = $1", requestID).Scan(&wf); err != nil {
		t.Fatal(err)
	}
	if wf == "" {
		return false
	}
	d, err := s.Local.Temporal.DescribeWorkflowExecution(context.Background(), wf, "")
	if err != nil {
		return false
	}
	for _, a := range d.GetPendingActivities() {
		if a.GetActivityType().GetName() == name && a.GetState() == enums.PENDING_ACTIVITY_STATE_STARTED &&
			time.Since(a.GetLastStartedTime().AsTime()) >= least && time.Since(a.GetLastStartedTime().AsTime()) < most {
			return true
		}
	}
	return false
}

// tail is the end of a process log, for failure messages.
func tail(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}
