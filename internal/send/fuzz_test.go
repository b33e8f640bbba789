package send

import (
	"encoding/json"
	"errors"
	"testing"

	herald "github.com/heraldhq/herald"
)

// FuzzParse checks send validation on arbitrary bodies: it never panics; it refuses with a
// 400 that names at least one rule; and what it accepts has an audience within the limits
// and survives the trip through the outbox (stored as JSON, read back by the worker).
// Seeds are in testdata/fuzz/FuzzParse; `go test` runs them, and
// `go test -fuzz FuzzParse ./internal/send/` explores further.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"notification":{"title":"Hi"},"sendTo":{"recipients":["ann"]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := Parse(body)
		if err != nil {
			var he *herald.Error
			if !errors.As(err, &he) || he.Code != herald.EINVALID || len(he.Details) == 0 {
				t.Fatalf("Parse(%q) failed with %#v, want a 400 listing the violated rules", body, err)
			}
			return
		}
		if len(req.Recipients) == 0 && len(req.Topics) == 0 {
			t.Fatalf("Parse(%q) accepted a send with no recipient and no topic", body)
		}
		if len(req.Recipients) > herald.MaxInlineRecipients || len(req.Topics) > herald.MaxTopics {
			t.Fatalf("Parse(%q) accepted %d recipients and %d topics", body, len(req.Recipients), len(req.Topics))
		}
		stored, err := json.Marshal(req)
		if err != nil {
			t.Fatalf("Parse(%q) accepted a request that cannot be stored: %v", body, err)
		}
		var back herald.SendRequest
		if err := json.Unmarshal(stored, &back); err != nil {
			t.Fatalf("the stored form %s of %q cannot be read back: %v", stored, body, err)
		}
		if len(back.Recipients) != len(req.Recipients) || back.Notification.Title != req.Notification.Title {
			t.Fatalf("the stored form %s of %q reads back differently", stored, body)
		}
	})
}
