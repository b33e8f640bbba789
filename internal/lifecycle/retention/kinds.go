// Package retention keeps an app's data for as long as its settings say and no longer: the
// kinds of data with a retention and their documented defaults, the per-app settings
// (validated, every problem listed) and the purge, which deletes expired rows in bounded
// batches (run by the RetentionPurge workflow on a Temporal Schedule).
//
// Both lists are tables: a new kind of data (a new append-only table) is one Setting and
// one Target, with no schema change and no new query.
package retention

// Setting is a kind of data with its own retention, as the API names it.
type Setting struct {
	// Name is the key in the settings object (GET/PUT /v1/apps/{appId}/retention).
	Name string
	// Default is the retention in days when the app sets none; Min and Max bound a setting.
	Default, Min, Max int
	// Description says what the kind covers (docs and the OpenAPI document).
	Description string
}

// Settings are the kinds of data with a retention. The defaults are documented in
// docs/operations.md#retention.
var Settings = []Setting{
	{Name: "inboxRead", Default: 90, Min: 1, Max: 3650,
		Description: "inbox items the user has read or deleted"},
	{Name: "inboxUnread", Default: 365, Min: 1, Max: 3650,
		Description: "inbox items the user has not read (nor deleted)"},
	{Name: "messageLogs", Default: 90, Min: 1, Max: 3650,
		Description: "message log rows (one per message per channel; messages still queued are kept)"},
	{Name: "flowLogs", Default: 90, Min: 1, Max: 3650,
		Description: "workflow step logs and the records of finished workflow runs"},
	{Name: "requests", Default: 30, Min: 1, Max: 3650,
		Description: "send requests (the outbox rows with their payloads) that completed or failed"},
	{Name: "idempotencyKeys", Default: 1, Min: 1, Max: 3650,
		Description: "the Idempotency-Key of send requests (the key is forgotten; the request stays for its own retention); at least the 24-hour idempotency window"},
}

// Target is one table (or part of one) purged under a setting. The fragments are constants
// of this file, never input.
type Target struct {
	// Setting names the setting whose retention applies.
	Setting string
	// Table is the table; Time its timestamp column compared with the cutoff. The table has
	// an app_id column and an index on (app_id, Time) (migration 00241 and earlier).
	Table, Time string
	// Where narrows the rows further (empty: every expired row).
	Where string
	// Set, when not empty, updates the expired rows (clearing columns) instead of deleting
	// them; Where must then exclude the rows already cleared.
	Set string
}

// Targets are what the purge visits, in this order.
var Targets = []Target{
	{Setting: "inboxRead", Table: "notifications", Time: "created_at", Where: "(read_at IS NOT NULL OR deleted_at IS NOT NULL)"},
	{Setting: "inboxUnread", Table: "notifications", Time: "created_at", Where: "read_at IS NULL AND deleted_at IS NULL"},
	{Setting: "messageLogs", Table: "message_logs", Time: "created_at", Where: "status <> 'queued'"},
	{Setting: "flowLogs", Table: "flow_logs", Time: "created_at"},
	{Setting: "flowLogs", Table: "flow_runs", Time: "created_at", Where: "status <> 'running'"},
	{Setting: "requests", Table: "notification_requests", Time: "created_at", Where: "status IN ('completed', 'failed')"},
	{Setting: "idempotencyKeys", Table: "notification_requests", Time: "created_at", Where: "idempotency_key IS NOT NULL",
		Set: "idempotency_key = NULL, body_hash = NULL"},
}

// setting returns the setting named name.
func setting(name string) (Setting, bool) {
	for _, s := range Settings {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}
