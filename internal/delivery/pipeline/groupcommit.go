package pipeline

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/heraldhq/herald/db/dbsqlc"
)

// maxPerCommit bounds the records one group commit writes.
const maxPerCommit = 500

// groupCommit gathers the records of concurrent senders into one statement per commit: a
// record waits for the commit that carries it, and a commit carries every record that
// arrived while the one before it was being written. A batch of a few hundred messages
// then costs a few commits where one per message made each of them wait for its own WAL
// flush, which every other app's commits wait behind as well (issue 28: a hung provider's
// batches recorded 20,000 held messages one commit each, and app B's sends slowed to a
// second meanwhile). A process has one for sent marks and one for attempt records, shared
// by all its batches (Service.recorders).
type groupCommit[T any] struct {
	reqs chan groupReq[T]
}

type groupReq[T any] struct {
	v    T
	done chan struct{}
}

// startGroupCommit starts the recorder, for the life of the process: commit writes the
// records given (it must not fail: it logs what it could not write). ctx is kept past
// cancellation, since what is recorded has happened.
func startGroupCommit[T any](ctx context.Context, commit func(ctx context.Context, vs []T)) *groupCommit[T] {
	g := &groupCommit[T]{reqs: make(chan groupReq[T], maxPerCommit)}
	ctx = context.WithoutCancel(ctx)
	go func() {
		for first := range g.reqs {
			reqs := []groupReq[T]{first}
		more:
			for len(reqs) < maxPerCommit {
				select {
				case r, ok := <-g.reqs:
					if !ok {
						break more
					}
					reqs = append(reqs, r)
				default:
					break more
				}
			}
			vs := make([]T, len(reqs))
			for i, r := range reqs {
				vs[i] = r.v
			}
			commit(ctx, vs)
			for _, r := range reqs {
				close(r.done)
			}
		}
	}()
	return g
}

// add records v with the others that arrive meanwhile, and returns once it is committed.
func (g *groupCommit[T]) add(v T) {
	done := make(chan struct{})
	g.reqs <- groupReq[T]{v: v, done: done}
	<-done
}

// recorders are the process's group commits (see Service.recorders).
type recorders struct {
	once     sync.Once
	sent     *groupCommit[dbsqlc.MarkMessageSentParams]
	attempts *groupCommit[dbsqlc.RecordMessageAttemptErrorParams]
}

// recorders returns the process's group commits of sent marks and of failed or held
// attempts, started on first use and kept for the life of the process. A batch's sender
// waits for the commit of its message before it takes the next, so a worker that dies
// leaves at most one message per provider call in flight sent but not recorded, as it
// would one at a time. They were one per
// batch: when a hung provider's calls timed out or its breaker opened, each of a hundred
// batches in flight wrote its few records at the same moment, a hundred small statements
// that queued on the WAL insertion locks together with every other app's commits (issue
// 28). Shared, the records of all batches go in a few statements, written one after the
// other.
func (a *Service) recorders() (*groupCommit[dbsqlc.MarkMessageSentParams], *groupCommit[dbsqlc.RecordMessageAttemptErrorParams]) {
	r := &a.records
	r.once.Do(func() {
		ctx := context.Background()
		r.sent = startGroupCommit(ctx, a.commitSent)
		r.attempts = startGroupCommit(ctx, a.commitAttempts)
	})
	return r.sent, r.attempts
}

// retryCommit runs write up to three times, 100 ms then 400 ms apart (sooner when ctx
// ends), and reports the last error.
func retryCommit(ctx context.Context, write func() error) error {
	delay := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := write()
		if err == nil || attempt == 3 {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(delay):
			delay *= 4
		}
	}
}

// commitSent marks messages sent in one statement.
func (a *Service) commitSent(ctx context.Context, sent []dbsqlc.MarkMessageSentParams) {
	var p dbsqlc.MarkMessagesSentParams
	for _, x := range sent {
		p.Ids = append(p.Ids, x.ID)
		p.Providers = append(p.Providers, deref(x.Provider))
		p.InstanceIds = append(p.InstanceIds, *x.InstanceID)
		p.ProviderMessageIds = append(p.ProviderMessageIds, x.ProviderMessageID)
		p.ProviderResponses = append(p.ProviderResponses, deref(x.ProviderResponse))
		p.Errors = append(p.Errors, x.Error)
	}
	if err := retryCommit(ctx, func() error {
		return a.bulkWrite(ctx, len(p.Ids), func() error { return a.DB.MarkMessagesSent(ctx, p) })
	}); err != nil {
		a.Log.Error("could not record sent messages; their log rows stay queued", "messages", len(sent), "error", err)
	}
}

// pacedRecordRows bounds the attempt records one statement writes while single sends are
// being delivered in the process (see commitAttempts).
const pacedRecordRows = 100

// commitAttempts records failed or held attempts in one statement, or, while single sends
// are being delivered in the process (pace.go), in statements of pacedRecordRows with a
// rest after each but the last, so that they take at most BulkShare percent of the time.
// When an instance's breaker opens, every batch in flight records its held messages at
// once: about 2,000 rows in the isolation bench, written as five statements of 23–81 ms
// back to back, and another app's send sent in that moment took 150 ms (issue 28). These
// records are never urgent: the messages are held either way. A row left unrecorded keeps
// its lease until it ends, and the attempt's retry waits that long to claim it.
func (a *Service) commitAttempts(ctx context.Context, attempts []dbsqlc.RecordMessageAttemptErrorParams) {
	if len(attempts) <= pacedRecordRows || !a.paced(time.Now()) {
		a.writeAttempts(ctx, attempts)
		return
	}
	var owed time.Duration // the rest the statement before asks for
	for part := range slices.Chunk(attempts, pacedRecordRows) {
		if a.paced(time.Now()) {
			a.rest(ctx, owed)
		}
		start := time.Now()
		a.writeAttempts(ctx, part)
		owed = a.restAfter(time.Since(start))
	}
}

// writeAttempts records failed or held attempts in one statement.
func (a *Service) writeAttempts(ctx context.Context, attempts []dbsqlc.RecordMessageAttemptErrorParams) {
	var p dbsqlc.RecordMessageAttemptErrorsParams
	for _, x := range attempts {
		var instance int64
		if x.InstanceID != nil {
			instance = *x.InstanceID
		}
		p.Ids = append(p.Ids, x.ID)
		p.Providers = append(p.Providers, deref(x.Provider))
		p.InstanceIds = append(p.InstanceIds, instance)
		p.Errors = append(p.Errors, deref(x.Error))
	}
	if err := retryCommit(ctx, func() error {
		return a.bulkWrite(ctx, len(p.Ids), func() error { return a.DB.RecordMessageAttemptErrors(ctx, p) })
	}); err != nil {
		a.Log.Error("could not record failed attempts; their log rows stay leased until the lease ends", "messages", len(attempts), "error", err)
	}
}
