package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// Stages of one of B's sends, in order: where its accept → inbox time went (issue 28).
// The times come from the request row (created_at), the run's Temporal history (event
// times) and the inbox row (created_at), all stamped on the same machine. A run whose first
// slice is a local activity (send.LocalSliceSize) writes the row inside its first workflow
// task: its two middle stages are zero and the last one starts at the task's pickup.
var stageNames = []string{
	"accept: POST start → request row",
	"relay: request row → run started",
	"workflow task queued: run started → first workflow task picked up",
	"workflow task: picked up → completed (DeliverBatch scheduled; 0 when local)",
	"DeliverBatch queued: scheduled → picked up by a worker (0 when local)",
	"DeliverBatch: picked up → inbox row written (local: from the workflow task's pickup)",
}

// stageStats are one stage's p50, p99 and max over B's sends.
type stageStats struct {
	Name          string
	P50, P99, Max time.Duration
}

// sendTrace is one send's time per stage (stageNames order) and its total, and when it
// was sent, from the phase's first send (for app A's noise: about from its broadcast).
type sendTrace struct {
	Total  time.Duration
	Stages []time.Duration
	At     time.Duration
}

// traceSends reads the stages of each send (request id → POST start, inbox row time) from
// the database and the runs' histories at addr. Sends whose run or events are missing are
// left out.
func traceSends(ctx context.Context, pool *pgxpool.Pool, addr string, starts, rows map[string]time.Time) ([]stageStats, []sendTrace, error) {
	if addr == "" || len(starts) == 0 {
		return nil, nil, nil
	}
	c, err := client.Dial(client.Options{HostPort: addr, Logger: silent{}})
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	var first time.Time
	for _, start := range starts {
		if first.IsZero() || start.Before(first) {
			first = start
		}
	}
	var traces []sendTrace
	for id, start := range starts {
		row, ok := rows[id]
		if !ok {
			continue
		}
		var created time.Time
		var workflowID *string
		if err := pool.QueryRow(ctx, `SELECT created_at, workflow_id FROM notification_requests WHERE id = $1`, id).Scan(&created, &workflowID); err != nil {
			return nil, nil, err
		}
		if workflowID == nil {
			continue
		}
		var started, wtScheduled, wtStarted, wtCompleted, actScheduled, actStarted time.Time
		// local: the first slice ran as a local activity (its marker before any activity).
		local := false
		it := c.GetWorkflowHistory(ctx, *workflowID, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				return nil, nil, fmt.Errorf("history of %s: %w", *workflowID, err)
			}
			at := ev.GetEventTime().AsTime()
			switch ev.GetEventType() {
			case enums.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
				started = at
			case enums.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
				if wtScheduled.IsZero() {
					wtScheduled = at
				}
			case enums.EVENT_TYPE_WORKFLOW_TASK_STARTED:
				if wtStarted.IsZero() {
					wtStarted = at
				}
			case enums.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
				if wtCompleted.IsZero() {
					wtCompleted = at
				}
			case enums.EVENT_TYPE_MARKER_RECORDED:
				if actScheduled.IsZero() && ev.GetMarkerRecordedEventAttributes().GetMarkerName() == localActivityMarker {
					local = true
				}
			case enums.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
				if actScheduled.IsZero() {
					actScheduled = at
				}
			case enums.EVENT_TYPE_ACTIVITY_TASK_STARTED:
				if actStarted.IsZero() {
					actStarted = at
				}
			}
		}
		if started.IsZero() || wtStarted.IsZero() || wtCompleted.IsZero() {
			continue
		}
		if local {
			traces = append(traces, sendTrace{Total: row.Sub(start), At: start.Sub(first), Stages: []time.Duration{
				created.Sub(start), started.Sub(created), wtStarted.Sub(started), 0, 0, row.Sub(wtStarted),
			}})
			continue
		}
		if actScheduled.IsZero() || actStarted.IsZero() {
			continue
		}
		traces = append(traces, sendTrace{Total: row.Sub(start), At: start.Sub(first), Stages: []time.Duration{
			created.Sub(start), started.Sub(created), wtStarted.Sub(started), wtCompleted.Sub(wtStarted),
			actStarted.Sub(actScheduled), row.Sub(actStarted),
		}})
	}
	stats := make([]stageStats, len(stageNames))
	for i, name := range stageNames {
		var d []time.Duration
		for _, t := range traces {
			d = append(d, t.Stages[i])
		}
		slices.Sort(d)
		stats[i] = stageStats{Name: name, P50: pick(d, 0.50), P99: pick(d, 0.99), Max: pick(d, 1)}
	}
	slices.SortFunc(traces, func(a, b sendTrace) int { return int(b.Total - a.Total) })
	return stats, traces[:min(len(traces), 5)], nil
}

// localActivityMarker is the name of the marker the Temporal Go SDK records for a local
// activity's result.
const localActivityMarker = "LocalActivity"

func pick(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(p*float64(len(d))))]
}

// writeStages writes the stage table of one phase and its slowest sends.
func writeStages(w io.Writer, phase string, stats []stageStats, slowest []sendTrace) {
	if len(stats) == 0 {
		return
	}
	fmt.Fprintf(w, "Where B's time went, %s (from the request row, the run's history and the inbox row):\n\n", phase)
	fmt.Fprintf(w, "| stage | p50 | p99 | max | slowest 5 sends |\n|---|---|---|---|---|\n")
	for i, s := range stats {
		var slow []string
		for _, t := range slowest {
			slow = append(slow, ms(t.Stages[i]))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", s.Name, ms(s.P50), ms(s.P99), ms(s.Max), strings.Join(slow, ", "))
	}
	var totals []string
	for _, t := range slowest {
		totals = append(totals, ms(t.Total))
	}
	fmt.Fprintf(w, "| total | | | | %s |\n", strings.Join(totals, ", "))
	var at []string
	for _, t := range slowest {
		at = append(at, fmt.Sprintf("%.1f s", t.At.Seconds()))
	}
	fmt.Fprintf(w, "| sent, from the phase's first send | | | | %s |\n\n", strings.Join(at, ", "))
}
