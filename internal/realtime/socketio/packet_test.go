package socketio

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Packet
	}{
		{"0", Packet{Type: Connect, Namespace: "/", ID: -1}},
		{`0{"token":"abc"}`, Packet{Type: Connect, Namespace: "/", ID: -1, Data: json.RawMessage(`{"token":"abc"}`)}},
		{"0/admin,", Packet{Type: Connect, Namespace: "/admin", ID: -1}},
		{"0/admin", Packet{Type: Connect, Namespace: "/admin", ID: -1}},
		{`0/admin,{"a":1}`, Packet{Type: Connect, Namespace: "/admin", ID: -1, Data: json.RawMessage(`{"a":1}`)}},
		{"1", Packet{Type: Disconnect, Namespace: "/", ID: -1}},
		{`2["hello",1]`, Packet{Type: Event, Namespace: "/", ID: -1, Data: json.RawMessage(`["hello",1]`)}},
		{`212["hello"]`, Packet{Type: Event, Namespace: "/", ID: 12, Data: json.RawMessage(`["hello"]`)}},
		{`2/chat,7["hello"]`, Packet{Type: Event, Namespace: "/chat", ID: 7, Data: json.RawMessage(`["hello"]`)}},
		{`2[1,2]`, Packet{Type: Event, Namespace: "/", ID: -1, Data: json.RawMessage(`[1,2]`)}},
		{`3/chat,7[]`, Packet{Type: Ack, Namespace: "/chat", ID: 7, Data: json.RawMessage(`[]`)}},
		{`4{"message":"no"}`, Packet{Type: ConnectError, Namespace: "/", ID: -1, Data: json.RawMessage(`{"message":"no"}`)}},
		{`4"no"`, Packet{Type: ConnectError, Namespace: "/", ID: -1, Data: json.RawMessage(`"no"`)}},
		{`51-["up",{"_placeholder":true,"num":0}]`, Packet{Type: BinaryEvent, Attachments: 1, Namespace: "/", ID: -1, Data: json.RawMessage(`["up",{"_placeholder":true,"num":0}]`)}},
		{`62-/x,3[]`, Packet{Type: BinaryAck, Attachments: 2, Namespace: "/x", ID: 3, Data: json.RawMessage(`[]`)}},
	} {
		got, err := Parse([]byte(tc.in))
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !equal(got, tc.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, in := range []string{
		"", "7", "x", "9[]",
		`0[]`, `0"x"`, `0{`, `0 `,
		`1{}`,
		`2`, `2{}`, `2[]`, `2[{}]`, `2["connect"]`, `2["disconnect",1]`, `2[null]`, `2["a"`,
		`3`, `3{}`,
		`4`, `4[]`, `41`,
		`5["a"]`, `5x-["a"]`, `5-1-["a"]`, `5+1-["a"]`,
		`299999999999999999999["a"]`,
	} {
		if p, err := Parse([]byte(in)); !errors.Is(err, ErrPacket) {
			t.Errorf("Parse(%q) = %+v, %v; want an ErrPacket", in, p, err)
		}
	}
}

func TestFrames(t *testing.T) {
	if got := string(EventFrame("NEW_NOTIFICATION", json.RawMessage(`{"id":1}`))); got != `42["NEW_NOTIFICATION",{"id":1}]` {
		t.Errorf("EventFrame = %s", got)
	}
	if got := string(EventFrame("PING", nil)); got != `42["PING"]` {
		t.Errorf("EventFrame without data = %s", got)
	}
	if got := string(controlFrame(ConnectError, "/", map[string]string{"message": "no"})); got != `44{"message":"no"}` {
		t.Errorf("controlFrame = %s", got)
	}
	if got := string(controlFrame(ConnectError, "/admin", map[string]string{"message": "no"})); got != `44/admin,{"message":"no"}` {
		t.Errorf("controlFrame with namespace = %s", got)
	}
}

func equal(a, b Packet) bool {
	return a.Type == b.Type && a.Attachments == b.Attachments && a.Namespace == b.Namespace && a.ID == b.ID &&
		bytes.Equal(a.Data, b.Data) && (a.Data == nil) == (b.Data == nil)
}

// FuzzParse checks that no input panics the parser and that what it accepts encodes back
// to a packet it parses the same way. Seeds are in testdata/fuzz/FuzzParse; run longer with
// go test -fuzz FuzzParse ./internal/realtime/socketio/.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", `0{"token":"t"}`, `2["a",{"b":[1,2]}]`, `2/x,5["a"]`, `51-["a",{}]`, `4"no"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := Parse(in)
		if err != nil {
			return
		}
		enc := p.Append(nil)
		q, err := Parse(enc)
		if err != nil {
			t.Fatalf("Parse(%q) = %+v encodes to %q, which does not parse: %v", in, p, enc, err)
		}
		if !equal(p, q) {
			t.Fatalf("Parse(%q) = %+v, but its encoding %q parses to %+v", in, p, enc, q)
		}
	})
}
