package stack

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/heraldhq/herald/workflows/visibility"
)

// searchAttributes remembers that this process registered Herald's search attributes.
type searchAttributes struct {
	mu   sync.Mutex
	done bool
}

// EnsureSearchAttributes registers Herald's search attributes (HeraldAppId,
// HeraldRequestId, HeraldWorkflow, HeraldRecipient) on the configured namespace, retrying
// until Temporal answers or ctx ends. Workflow starts naming an attribute the namespace
// lacks fail, so the relay and the worker call it before they begin; it is idempotent and
// asks Temporal only until it succeeded once in this process.
//
// Credentials not allowed to register them (Temporal Cloud, whose operator API does not
// add search attributes; a restricted cluster) make it check that they exist instead, and
// log which are missing with the exact commands that add them (tcld on Temporal Cloud):
// runs start once an operator ran them (docs/deployment.md).
func (s *Stack) EnsureSearchAttributes(ctx context.Context) error {
	s.searchAttrs.mu.Lock()
	defer s.searchAttrs.mu.Unlock()
	wait := 500 * time.Millisecond
	ns := s.Cfg.TemporalNamespace
	for !s.searchAttrs.done {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := visibility.Register(rctx, s.Temporal, ns)
		if err == nil {
			cancel()
			s.searchAttrs.done = true
			break
		}
		if notAllowed(err) {
			s.reportSearchAttributes(rctx, err)
			cancel()
			s.searchAttrs.done = true
			break
		}
		cancel()
		s.Log.Warn("cannot register search attributes yet; retrying (an operator can add them: docs/deployment.md)",
			"namespace", ns, "retryIn", wait, "error", err, "add", strings.Join(visibility.AddCommands(ns, visibility.All(), s.TemporalConn.Cloud()), "; "))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 10*time.Second)
	}
	return nil
}

// notAllowed reports whether Temporal refused to add search attributes for good: the
// credentials may not, or the service does not offer it (Temporal Cloud).
func notAllowed(err error) bool {
	var denied *serviceerror.PermissionDenied
	var unimplemented *serviceerror.Unimplemented
	return errors.As(err, &denied) || errors.As(err, &unimplemented)
}

// reportSearchAttributes logs, after Herald was not allowed to add its search attributes,
// which the namespace lacks and the commands that add them.
func (s *Stack) reportSearchAttributes(ctx context.Context, registerErr error) {
	ns := s.Cfg.TemporalNamespace
	cloud := s.TemporalConn.Cloud()
	missing, err := visibility.Missing(ctx, s.Temporal, ns)
	switch {
	case err != nil:
		s.Log.Warn("not allowed to register Herald's search attributes, nor to list them: check that the namespace has them, or runs cannot start",
			"namespace", ns, "error", registerErr, "listError", err, "add", strings.Join(visibility.AddCommands(ns, visibility.All(), cloud), "; "))
	case len(missing) == 0:
		s.Log.Info("search attributes present (added by an operator)", "namespace", ns)
	default:
		s.Log.Error("the namespace lacks Herald's search attributes "+strings.Join(visibility.Names(missing), ", ")+", and Herald may not add them: workflow runs cannot start (sends wait in the outbox) until an operator runs the commands in add",
			"namespace", ns, "missing", strings.Join(visibility.Names(missing), ","), "add", strings.Join(visibility.AddCommands(ns, missing, cloud), "; "))
	}
}
