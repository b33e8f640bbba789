package config

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Kinds of task queue a worker can poll (workflows/taskqueue names the queues; its test
// holds the two lists equal): orchestration carries the workflows and their database work,
// each other kind the provider calls of a family of channels.
var queueKinds = []string{"orchestration", "email", "sms", "push", "chat", "webhook"}

// defaultSlots are the activity slots of each kind of queue per worker process. Provider
// kinds get fewer than orchestration: their activities mostly wait on the network, and a
// hung provider can take at most these.
var defaultSlots = map[string]int{"orchestration": 64, "email": 32, "sms": 16, "push": 16, "chat": 16, "webhook": 16}

type (
	// QueueKinds lists kinds of task queue (orchestration, email, sms, push, chat, webhook),
	// or "all".
	QueueKinds []string
	// QueueSlots gives some kinds of task queue their activity slot count, written
	// kind=count,…; the other kinds keep their default.
	QueueSlots map[string]int
)

// Has reports whether the list selects kind.
func (q QueueKinds) Has(kind string) bool { return slices.Contains(q, kind) }

// Of returns the activity slots of a kind of queue: the configured count or its default.
func (s QueueSlots) Of(kind string) int {
	if n, ok := s[kind]; ok {
		return n
	}
	return defaultSlots[kind]
}

func init() {
	parsers[reflect.TypeOf(QueueKinds(nil))] = func(v string) (any, error) { return parseQueueKinds(v) }
	parsers[reflect.TypeOf(QueueSlots(nil))] = func(v string) (any, error) { return parseQueueSlots(v) }
}

// ParseQueueKinds reads a comma-separated list of queue kinds, or "all" (every kind); the
// worker's --queues flag takes the same.
func ParseQueueKinds(v string) (QueueKinds, error) { return parseQueueKinds(v) }

func parseQueueKinds(v string) (QueueKinds, error) {
	var out QueueKinds
	var bad problems
	for _, k := range strings.Split(v, ",") {
		k = strings.TrimSpace(k)
		switch {
		case k == "":
		case k == "all":
			out = append(out, queueKinds...)
		case slices.Contains(queueKinds, k):
			out = append(out, k)
		default:
			bad = append(bad, fmt.Sprintf(": unknown queue kind %q (expected %s or all)", k, orList(queueKinds)))
		}
	}
	if len(bad) > 0 {
		return nil, bad
	}
	if len(out) == 0 {
		return nil, problems{": lists no queue kind"}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func parseQueueSlots(v string) (QueueSlots, error) {
	out := QueueSlots{}
	var bad problems
	for _, e := range strings.Split(v, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		k, n, ok := strings.Cut(e, "=")
		k = strings.TrimSpace(k)
		count, err := strconv.Atoi(strings.TrimSpace(n))
		switch {
		case !ok || err != nil || count < 1:
			bad = append(bad, fmt.Sprintf(": %q must be kind=count with a count of at least 1", e))
		case !slices.Contains(queueKinds, k):
			bad = append(bad, fmt.Sprintf(": unknown queue kind %q (expected %s)", k, orList(queueKinds)))
		default:
			out[k] = count
		}
	}
	if len(bad) > 0 {
		return nil, bad
	}
	return out, nil
}
