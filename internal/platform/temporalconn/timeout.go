package temporalconn

import (
	"context"
	"strings"
	"time"

	"google.golang.org/grpc"
)

// The SDK's backoff between connection attempts (internal to go.temporal.io/sdk: the
// retryPollOperation intervals), kept when Apply replaces its connection parameters.
const (
	sdkRetryBaseDelay = 200 * time.Millisecond
	sdkRetryMaxDelay  = 10 * time.Second
)

// longPolls are the calls the server holds open until there is something to answer (up to
// about a minute): worker task polls and waits on an update's or a run's result. The RPC
// timeout does not apply to them.
var longPolls = map[string]bool{
	"PollWorkflowTaskQueue":       true,
	"PollActivityTaskQueue":       true,
	"PollNexusTaskQueue":          true,
	"PollWorkflowExecutionUpdate": true,
	"UpdateWorkflowExecution":     true,
	"ExecuteMultiOperation":       true,
}

// rpcTimeout bounds each attempt of a unary call (the interceptor runs inside the SDK's
// retries) to d, unless the caller's deadline is nearer or the call is a long poll.
func rpcTimeout(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if d <= 0 || isLongPoll(method, req) {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		if deadline, ok := ctx.Deadline(); !ok || time.Until(deadline) > d {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

func isLongPoll(method string, req any) bool {
	name := method[strings.LastIndex(method, "/")+1:]
	if longPolls[name] {
		return true
	}
	// GetWorkflowExecutionHistory waits for new events when asked to (a client waiting on
	// a run's result).
	w, ok := req.(interface{ GetWaitNewEvent() bool })
	return ok && w.GetWaitNewEvent()
}
