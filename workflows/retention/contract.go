// Package retention is the workflow that purges expired data (internal/lifecycle/retention):
// a Temporal Schedule starts it periodically; it walks the apps page by page and purges
// each app's expired rows in an activity that deletes in bounded batches and heartbeats.
// This file is its contract: names, IDs and inputs.
package retention

import (
	"time"

	"github.com/heraldhq/herald/workflows/contract"
)

// Registered names (durable: the schedule and recorded histories name them).
const (
	WorkflowName         = "RetentionPurge"
	ListAppsActivityName = "RetentionListApps"
	PurgeAppActivityName = "RetentionPurgeApp"
)

// ScheduleID names the Temporal Schedule that starts the purge (one per namespace and task
// queue: every worker process ensures it at start-up).
func ScheduleID(taskQueue string) string { return "herald-retention/" + taskQueue }

// WorkflowID names the runs the schedule starts (Temporal appends the start time).
func WorkflowID(taskQueue string) string { return "retention/" + taskQueue }

// AppsPerRun is how many apps one run purges before it continues as new, keeping its
// history short however many apps there are.
const AppsPerRun = 200

// Input starts (or continues) a purge.
type Input struct {
	// AfterAppID resumes after this app (0: from the first).
	AfterAppID int64
	// Purged carries the totals of earlier runs of the same pass, per setting.
	Purged map[string]int64
}

// ListAppsInput asks for a page of apps.
type ListAppsInput struct {
	AfterAppID int64
	Limit      int
}

// PurgeAppInput names the app to purge.
type PurgeAppInput struct {
	AppID int64
}

// PurgeAppResult counts the rows purged per setting.
type PurgeAppResult struct {
	Purged map[string]int64
}

// Activity timeouts: a purge heartbeats after every batch, so a worker that dies is noticed
// within HeartbeatTimeout and the activity is retried elsewhere (deleting expired rows
// twice is harmless).
const (
	HeartbeatTimeout = time.Minute
	PurgeTimeout     = 6 * time.Hour
)

// The retention workflow's activities, as typed descriptors (workflows/contract).
var (
	ListApps = contract.Define[ListAppsInput, []int64](ListAppsActivityName)
	PurgeApp = contract.Define[PurgeAppInput, PurgeAppResult](PurgeAppActivityName)
)
