// Package taskqueue names the Temporal task queues Herald splits its work across, so that
// one kind of work cannot take the worker slots another needs (docs/deployment.md, "Task
// queues"): the orchestration queue carries the workflows and their database work (resolving
// recipients, writing in-app rows and the message log), and each provider queue carries the
// calls to one family of external channels. A hung SMTP server then holds only email slots;
// in-app delivery and the other channels go on.
//
// The workflows derive every queue from their own task queue (the base, HERALD_TASK_QUEUE),
// so the names need no configuration inside workflow code and stay deterministic.
package taskqueue

// Orchestration is the kind of the base queue: workflows, DeliverBatch, schedules and the
// activities of user-defined workflows that touch no provider.
const Orchestration = "orchestration"

// The provider kinds: each has its own queue, <base>-<kind>.
const (
	Email   = "email"
	SMS     = "sms"
	Push    = "push"
	Chat    = "chat"
	Webhook = "webhook"
)

// Kinds lists every queue kind, the orchestration queue first.
var Kinds = []string{Orchestration, Email, SMS, Push, Chat, Webhook}

// kindOf maps each external channel to the kind of queue its provider calls run on.
var kindOf = map[string]string{
	"email":      Email,
	"sms":        SMS,
	"whatsapp":   SMS,
	"webPush":    Push,
	"mobilePush": Push,
	"slack":      Chat,
	"discord":    Chat,
	"msTeams":    Chat,
	"webhook":    Webhook,
}

// KindOf returns the kind of queue a channel's deliveries run on: a provider kind for an
// external channel, Orchestration for in-app and anything unknown.
func KindOf(channel string) string {
	if k, ok := kindOf[channel]; ok {
		return k
	}
	return Orchestration
}

// Name returns the task queue of a kind of work: the base itself for orchestration,
// <base>-<kind> for a provider kind.
func Name(base, kind string) string {
	if kind == Orchestration || kind == "" {
		return base
	}
	return base + "-" + kind
}

// ForChannel returns the task queue of a channel's deliveries.
func ForChannel(base, channel string) string { return Name(base, KindOf(channel)) }
