package herald_test

import (
	"encoding/json"
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

// TestDecodeSendRequestCostsNoMoreThanUnmarshal keeps the delivery hot path as it was:
// decoding through DecodeSendRequest allocates what json.Unmarshal into the caller's value
// allocates, and nothing more.
func TestDecodeSendRequestCostsNoMoreThanUnmarshal(t *testing.T) {
	payload := []byte(`{"notification":{"title":"Hi","message":"Hello","category":"news"},"recipients":[{"identifier":"alice"},{"identifier":"bob"}],"data":{"order":{"id":42}}}`)
	var req herald.SendRequest
	plain := testing.AllocsPerRun(200, func() { req = herald.SendRequest{}; _ = json.Unmarshal(payload, &req) })
	decoded := testing.AllocsPerRun(200, func() { req = herald.SendRequest{}; _ = herald.DecodeSendRequest(payload, &req) })
	if decoded > plain {
		t.Errorf("DecodeSendRequest allocates %.0f times, json.Unmarshal %.0f", decoded, plain)
	}
}
