package temporalcodec

import (
	"context"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/proxy"
)

// DecodeHistory decrypts every payload of a history in place (search attributes are never
// encrypted), as the CLI shows a history through the codec server. Histories recorded for
// the replay tests are stored decoded, so they replay under any key.
func (c *Codec) DecodeHistory(h *historypb.History) error {
	return c.visit(h, c.Decode)
}

// EncodeHistory encrypts every payload of a history in place (tests: a recorded plain
// history as it would be written now).
func (c *Codec) EncodeHistory(h *historypb.History) error {
	return c.visit(h, c.Encode)
}

func (c *Codec) visit(h *historypb.History, f func([]*commonpb.Payload) ([]*commonpb.Payload, error)) error {
	return proxy.VisitPayloads(context.Background(), h, proxy.VisitPayloadsOptions{
		SkipSearchAttributes: true,
		Visitor: func(_ *proxy.VisitPayloadsContext, p []*commonpb.Payload) ([]*commonpb.Payload, error) {
			return f(p)
		},
	})
}
