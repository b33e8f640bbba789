// Package contract declares activities as typed descriptors: a durable name together with
// the Go types of its input and result. A workflow calls an activity through its
// descriptor and the worker registers the implementation through the same descriptor, so
// an input of the wrong type, or an implementation whose signature drifted, fails to
// compile instead of failing inside a recorded history.
//
// The name is what Temporal records; it never changes once a history holds it (the replay
// tests in workflows/replay_test.go hold every recorded name to its descriptor).
package contract

import (
	"context"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// Activity is an activity that takes an In and returns an Out.
type Activity[In, Out any] struct {
	// Name is the activity's durable, registered name.
	Name string
}

// Define returns the descriptor of the activity registered as name.
func Define[In, Out any](name string) Activity[In, Out] {
	return Activity[In, Out]{Name: name}
}

// Execute schedules the activity with the options ctx carries (workflow.WithActivityOptions).
func (a Activity[In, Out]) Execute(ctx workflow.Context, in In) Future[Out] {
	return Future[Out]{workflow.ExecuteActivity(ctx, a.Name, in)}
}

// ExecuteLocal runs the activity as a local activity (workflow.WithLocalActivityOptions).
func (a Activity[In, Out]) ExecuteLocal(ctx workflow.Context, in In) Future[Out] {
	return Future[Out]{workflow.ExecuteLocalActivity(ctx, a.Name, in)}
}

// Register adds fn to r under the activity's name.
func (a Activity[In, Out]) Register(r worker.ActivityRegistry, fn func(context.Context, In) (Out, error)) {
	r.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: a.Name})
}

// Future is the pending result of an activity; Result reads it as an Out. A selector needs
// the SDK's own future: pass f.Future to workflow.Selector.AddFuture.
type Future[Out any] struct {
	workflow.Future
}

// Result waits for the activity and returns its result.
func (f Future[Out]) Result(ctx workflow.Context) (Out, error) {
	var out Out
	err := f.Get(ctx, &out)
	return out, err
}

// Action is an activity that takes an In and returns nothing but an error.
type Action[In any] struct {
	// Name is the activity's durable, registered name.
	Name string
}

// DefineAction returns the descriptor of the action registered as name.
func DefineAction[In any](name string) Action[In] {
	return Action[In]{Name: name}
}

// Execute schedules the action with the options ctx carries.
func (a Action[In]) Execute(ctx workflow.Context, in In) Done {
	return Done{workflow.ExecuteActivity(ctx, a.Name, in)}
}

// ExecuteLocal runs the action as a local activity.
func (a Action[In]) ExecuteLocal(ctx workflow.Context, in In) Done {
	return Done{workflow.ExecuteLocalActivity(ctx, a.Name, in)}
}

// Register adds fn to r under the action's name.
func (a Action[In]) Register(r worker.ActivityRegistry, fn func(context.Context, In) error) {
	r.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: a.Name})
}

// Done is the pending end of an action (d.Future goes to a selector).
type Done struct {
	workflow.Future
}

// Wait waits for the action and returns its error.
func (d Done) Wait(ctx workflow.Context) error {
	return d.Get(ctx, nil)
}
