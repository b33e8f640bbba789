package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// BroadcastResult is scenario 3: one send to a large topic.
type BroadcastResult struct {
	Members int
	// Took is from the accepted send to the last inbox row.
	Took time.Duration
	// Reference is a CopyFrom of as many rows into the same table.
	Reference time.Duration
	// WorkerRSS is the herald process's peak resident memory during the broadcast, in
	// bytes (0 when the process is not local).
	WorkerRSS int64
	// HistoryEvents is the largest history length of the runs that carried the send.
	HistoryEvents int64
	// Runs is how many runs carried the send (it continues as new when a run's limits fill).
	Runs int
}

// Broadcast seeds a topic of members users of the target's app, sends one in-app
// notification to it, and waits for every inbox row.
func Broadcast(ctx context.Context, t *Target, members int, pid int) (BroadcastResult, error) {
	res := BroadcastResult{Members: members}
	pool, err := pgxpool.New(ctx, t.DatabaseURL)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	var appID int64
	if err := pool.QueryRow(ctx, "SELECT id FROM apps WHERE api_key = $1", t.APIKey).Scan(&appID); err != nil {
		return res, err
	}
	topic := fmt.Sprintf("broadcast-%d", members)
	if _, err := pool.Exec(ctx, `INSERT INTO users (app_id, identifier) SELECT $1, 'member-' || g FROM generate_series(1, $2) g ON CONFLICT DO NOTHING`, appID, members); err != nil {
		return res, err
	}
	var topicID int64
	if err := pool.QueryRow(ctx, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, $2, $2) RETURNING id`, appID, topic).Scan(&topicID); err != nil {
		return res, err
	}
	if _, err := pool.Exec(ctx, `INSERT INTO topic_subscriptions (topic_id, user_id) SELECT $1, id FROM users WHERE app_id = $2 AND identifier LIKE 'member-%'`, topicID, appID); err != nil {
		return res, err
	}
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) users, topic_subscriptions"); err != nil {
		return res, err
	}

	body := fmt.Appendf(nil, `{"notification":{"title":"broadcast"},"sendTo":{"topics":[%q]},"override":{"channels":["inApp"]}}`, topic)
	start := time.Now()
	status, out, err := t.Do(ctx, "POST", "/v3/notifications", body, t.AppHeaders())
	if err := expect(status, out, err, 202); err != nil {
		return res, err
	}
	var accepted struct{ RequestID string }
	_ = json.Unmarshal(out, &accepted)
	wid := "send/" + accepted.RequestID
	if res.Took, res.WorkerRSS, err = waitBroadcast(ctx, pool, t.TemporalAddr, wid, accepted.RequestID, members, pid, start); err != nil {
		return res, err
	}
	res.HistoryEvents, res.Runs = histories(ctx, t.TemporalAddr, wid)
	res.Reference, err = copyReference(ctx, pool, appID, members)
	return res, err
}

// waitBroadcast waits until the send has written every inbox row and returns how long that
// took from start and the herald process's peak RSS meanwhile. It watches the send's
// workflow rather than counting rows, which on a million-row table would cost the machine
// a core of its own; the rows are counted once at the end. Without a Temporal address it
// counts rows by request id every second.
func waitBroadcast(ctx context.Context, pool *pgxpool.Pool, temporalAddr, workflowID, requestID string, members, pid int, start time.Time) (took time.Duration, peakRSS int64, err error) {
	var c client.Client
	if temporalAddr != "" {
		if c, err = client.Dial(client.Options{HostPort: temporalAddr, Logger: silent{}}); err != nil {
			return 0, 0, err
		}
		defer c.Close()
	}
	count := func() (n int, err error) {
		err = pool.QueryRow(ctx, "SELECT count(*) FROM notifications WHERE request_id = $1", requestID).Scan(&n)
		return n, err
	}
	deadline := start.Add(30 * time.Minute)
	var lastCount time.Time
	for ; ; time.Sleep(100 * time.Millisecond) {
		peakRSS = max(peakRSS, rss(pid))
		done := false
		if c != nil {
			d, err := c.DescribeWorkflowExecution(ctx, workflowID, "")
			done = err == nil && d.WorkflowExecutionInfo.Status != enums.WORKFLOW_EXECUTION_STATUS_RUNNING
		} else if time.Since(lastCount) >= time.Second {
			lastCount = time.Now()
			n, err := count()
			if err != nil {
				return 0, 0, err
			}
			done = n >= members
		}
		if done {
			took = time.Since(start)
			n, err := count()
			if err != nil {
				return 0, 0, err
			}
			if n < members {
				return 0, 0, fmt.Errorf("the broadcast's workflow ended with %d of %d inbox rows", n, members)
			}
			return took, peakRSS, nil
		}
		if time.Now().After(deadline) {
			n, _ := count()
			return 0, 0, fmt.Errorf("only %d of %d broadcast rows after 30 minutes", n, members)
		}
	}
}

// copyReference copies rows like the broadcast's into the same table (for users of
// another request id) and returns the time it took.
func copyReference(ctx context.Context, pool *pgxpool.Pool, appID int64, n int) (time.Duration, error) {
	rows, err := pool.Query(ctx, "SELECT id FROM users WHERE app_id = $1 AND identifier LIKE 'member-%' ORDER BY id", appID)
	if err != nil {
		return 0, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return 0, err
	}
	req := uuid.New()
	src := make([][]any, len(ids))
	for i, id := range ids {
		src[i] = []any{appID, id, req, "reference", "reference row"}
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Release()
	start := time.Now()
	_, err = conn.Conn().CopyFrom(ctx, pgx.Identifier{"notifications"}, []string{"app_id", "user_id", "request_id", "title", "message"}, pgx.CopyFromRows(src))
	return time.Since(start), err
}

// historySizes returns the longest history among a workflow's runs in events and bytes,
// and how many runs there were (zeros when unknown).
func historySizes(ctx context.Context, addr, workflowID string) (events, size int64, runs int) {
	if addr == "" {
		return 0, 0, 0
	}
	c, err := client.Dial(client.Options{HostPort: addr, Logger: silent{}})
	if err != nil {
		return 0, 0, 0
	}
	defer c.Close()
	// The visibility store lags a little behind the last run's close.
	time.Sleep(2 * time.Second)
	req := &workflowservice.ListWorkflowExecutionsRequest{Query: fmt.Sprintf("WorkflowId = %q", workflowID)}
	for {
		page, err := c.ListWorkflow(ctx, req)
		if err != nil {
			return 0, 0, 0
		}
		for _, e := range page.Executions {
			events = max(events, e.HistoryLength)
			size = max(size, e.HistorySizeBytes)
			runs++
		}
		if len(page.NextPageToken) == 0 {
			return events, size, runs
		}
		req.NextPageToken = page.NextPageToken
	}
}

// histories returns the longest history among a workflow's runs and how many runs there
// were (0, 0 when unknown). A send continues as new, so each run's history stays short
// however large the audience.
func histories(ctx context.Context, addr, workflowID string) (longest int64, runs int) {
	if addr == "" {
		return 0, 0
	}
	c, err := client.Dial(client.Options{HostPort: addr, Logger: silent{}})
	if err != nil {
		return 0, 0
	}
	defer c.Close()
	req := &workflowservice.ListWorkflowExecutionsRequest{Query: fmt.Sprintf("WorkflowId = %q", workflowID)}
	for {
		page, err := c.ListWorkflow(ctx, req)
		if err != nil {
			return 0, 0
		}
		for _, e := range page.Executions {
			longest = max(longest, e.HistoryLength)
			runs++
		}
		if len(page.NextPageToken) == 0 {
			return longest, runs
		}
		req.NextPageToken = page.NextPageToken
	}
}

// rss reads a local process's resident memory from /proc (0 when unknown).
func rss(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func (b *BroadcastResult) write(w io.Writer) {
	ratio := b.Reference.Seconds() / max(b.Took.Seconds(), 0.001)
	fmt.Fprintf(w, "## 3. Broadcast: one in-app send to a topic of %d users\n\n| measure | value | target |\n|---|---|---|\n", b.Members)
	target := "≤ 10 s for 100,000 — " + verdict(b.Members < 100_000 || b.Took <= 10*time.Second)
	if b.Members > 100_000 {
		target = "completes — met"
	}
	fmt.Fprintf(w, "| accepted → last inbox row | %.1f s | %s |\n", b.Took.Seconds(), target)
	fmt.Fprintf(w, "| reference: CopyFrom of as many rows into the same table | %.2f s | |\n", b.Reference.Seconds())
	fmt.Fprintf(w, "| ratio (reference / broadcast) | %.2f | ≥ 0.30 — %s |\n", ratio, verdict(ratio >= 0.3))
	if b.HistoryEvents > 0 {
		fmt.Fprintf(w, "| history events of the send's longest run (of %d runs) | %d | < 10%% of Temporal's 51,200 — %s |\n", b.Runs, b.HistoryEvents, verdict(b.HistoryEvents < 5120))
	}
	if b.WorkerRSS > 0 {
		fmt.Fprintf(w, "| herald process peak RSS during the broadcast | %.0f MiB | bounded |\n", float64(b.WorkerRSS)/(1<<20))
	}
	fmt.Fprintln(w)
}
