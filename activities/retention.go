package activities

import (
	"context"

	"go.temporal.io/sdk/activity"

	"github.com/heraldhq/herald/internal/lifecycle/retention"
	wf "github.com/heraldhq/herald/workflows/retention"
)

// Retention runs the retention purge (workflows/retention).
type Retention struct {
	Purger *retention.Purger
}

// ListApps returns a page of app ids in id order.
func (a *Retention) ListApps(ctx context.Context, in wf.ListAppsInput) ([]int64, error) {
	apps, err := a.Purger.Apps(ctx, in.AfterAppID, in.Limit)
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(apps))
	for i, app := range apps {
		out[i] = app.ID
	}
	return out, nil
}

// PurgeApp removes one app's expired rows, heartbeating after every batch (the counts so
// far are the heartbeat's details).
func (a *Retention) PurgeApp(ctx context.Context, in wf.PurgeAppInput) (wf.PurgeAppResult, error) {
	apps, err := a.Purger.Apps(ctx, in.AppID-1, 1)
	if err != nil {
		return wf.PurgeAppResult{}, err
	}
	if len(apps) == 0 || apps[0].ID != in.AppID {
		return wf.PurgeAppResult{Purged: map[string]int64{}}, nil // deleted since it was listed
	}
	counts, err := a.Purger.PurgeApp(ctx, apps[0], func(c retention.Counts) {
		activity.RecordHeartbeat(ctx, map[string]int64(c))
	})
	if err != nil {
		return wf.PurgeAppResult{}, err
	}
	return wf.PurgeAppResult{Purged: counts}, nil
}
