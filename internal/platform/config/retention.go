package config

import "time"

// RetentionConfig configures the retention purge (internal/lifecycle/retention; the
// retention of each kind of data is a setting of each app, docs/operations.md#retention).
type RetentionConfig struct {
	// Interval is how often the Temporal Schedule starts a purge; 0 turns the schedule off.
	Interval time.Duration `env:"HERALD_RETENTION_INTERVAL" envDefault:"1h" min:"0" example:"15m" desc:"how often the retention purge runs (a Temporal Schedule every worker ensures at start-up; it deletes each app's data older than the app's retention, docs/operations.md#retention); 0 deletes the schedule and keeps everything"`
	// Batch caps the rows one purge statement deletes.
	Batch int `env:"HERALD_RETENTION_BATCH" envDefault:"5000" min:"1" example:"1000" desc:"rows one statement of the retention purge deletes at most (each statement commits on its own)"`
	// Pause is waited between two statements of a purge.
	Pause time.Duration `env:"HERALD_RETENTION_PAUSE" envDefault:"0s" min:"0" example:"50ms" desc:"pause between two statements of the retention purge, leaving the database to the traffic (docs/benchmarks.md#retention-purge)"`
}
