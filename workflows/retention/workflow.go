package retention

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Workflow purges the expired data of every app, AppsPerRun apps per run.
func Workflow(ctx workflow.Context, in Input) (map[string]int64, error) {
	total := map[string]int64{}
	for k, v := range in.Purged {
		total[k] = v
	}
	listCtx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	apps, err := ListApps.Execute(listCtx, ListAppsInput{AfterAppID: in.AfterAppID, Limit: AppsPerRun}).Result(ctx)
	if err != nil {
		return total, err
	}
	purgeCtx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: PurgeTimeout,
		HeartbeatTimeout:    HeartbeatTimeout,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: 5 * time.Minute, MaximumAttempts: 10},
	})
	for _, id := range apps {
		res, err := PurgeApp.Execute(purgeCtx, PurgeAppInput{AppID: id}).Result(ctx)
		if err != nil {
			// One app that keeps failing does not hold up the others; the next pass retries it.
			workflow.GetLogger(ctx).Warn("retention purge of an app failed", "appId", id, "error", err)
			continue
		}
		for k, v := range res.Purged {
			total[k] += v
		}
	}
	if len(apps) == AppsPerRun {
		return nil, workflow.NewContinueAsNewError(ctx, WorkflowName, Input{AfterAppID: apps[len(apps)-1], Purged: total})
	}
	return total, nil
}
