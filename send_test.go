package herald_test

import (
	"testing"

	herald "github.com/heraldhq/herald"
)

// TestDecodeSendRequest reads stored payloads: the stored form round-trips, JSON nulls
// become no value, and a payload that does not decode is EINVALID and leaves no partial
// request behind.
func TestDecodeSendRequest(t *testing.T) {
	var req herald.SendRequest
	err := herald.DecodeSendRequest([]byte(`{"notification":{"title":"Hi","category":"news","workflow":{"identifier":"welcome"}},
		"recipients":[{"identifier":"alice"}],"topics":["t"],"data":{"a":1},"override":{"channels":["email"],"raw":{"channels":["email"]}}}`), &req)
	if err != nil {
		t.Fatal(err)
	}
	if req.Notification.Title != "Hi" || req.Notification.Flow == nil || req.Notification.Flow.Identifier != "welcome" ||
		len(req.Recipients) != 1 || req.Recipients[0].Identifier != "alice" || string(req.Data) != `{"a":1}` ||
		req.Override == nil || len(req.Override.Channels) != 1 {
		t.Errorf("decoded %+v", req)
	}

	req = herald.SendRequest{}
	if err := herald.DecodeSendRequest([]byte(`{"notification":{"title":"Hi","blocks":null},"data":null,"override":{"raw":null}}`), &req); err != nil {
		t.Fatal(err)
	}
	if req.Data != nil || req.Notification.Blocks != nil || req.Override.Raw != nil {
		t.Errorf("nulls kept: data %q, blocks %q, override.raw %q", req.Data, req.Notification.Blocks, req.Override.Raw)
	}

	req = herald.SendRequest{}
	err = herald.DecodeSendRequest([]byte(`{"notification":{"title":"Hi"},"recipients":"alice"}`), &req)
	if herald.ErrorCode(err) != herald.EINVALID {
		t.Fatalf("bad payload: %v, want EINVALID", err)
	}
	if req.Notification.Title != "" {
		t.Errorf("a failed decode left %+v", req)
	}
}
