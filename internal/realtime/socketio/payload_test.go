package socketio

import (
	"bytes"
	"errors"
	"testing"
)

func TestDecodePayload(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []EnginePacket
	}{
		{"3", []EnginePacket{{Type: EnginePong, Data: []byte{}}}},
		{`40{"token":"t"}`, []EnginePacket{{Type: EngineMessage, Data: []byte(`0{"token":"t"}`)}}},
		// What socket.io-client batches into one POST: CONNECT and a pong; then a disconnect
		// and the Engine.IO close.
		{"40\x1e3", []EnginePacket{{Type: EngineMessage, Data: []byte("0")}, {Type: EnginePong, Data: []byte{}}}},
		{"41\x1e1", []EnginePacket{{Type: EngineMessage, Data: []byte("1")}, {Type: EngineClose, Data: []byte{}}}},
		{"2probe\x1e6", []EnginePacket{{Type: EnginePing, Data: []byte("probe")}, {Type: EngineNoop, Data: []byte{}}}},
		// Binary: 'b' and base64, always a message.
		{"451-[\"up\",{\"_placeholder\":true,\"num\":0}]\x1ebAQID/w==", []EnginePacket{
			{Type: EngineMessage, Data: []byte(`51-["up",{"_placeholder":true,"num":0}]`)},
			{Type: EngineMessage, Data: []byte{1, 2, 3, 0xff}, Binary: true},
		}},
		{"b", []EnginePacket{{Type: EngineMessage, Data: []byte{}, Binary: true}}},
		// UTF-8 passes through untouched.
		{"42[\"é\",\"\u2028\"]", []EnginePacket{{Type: EngineMessage, Data: []byte("2[\"é\",\"\u2028\"]")}}},
	} {
		got, err := DecodePayload([]byte(tc.in))
		if err != nil {
			t.Errorf("DecodePayload(%q): %v", tc.in, err)
			continue
		}
		if !samePackets(got, tc.want) {
			t.Errorf("DecodePayload(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if enc := AppendPayload(nil, got...); string(enc) != tc.in {
			t.Errorf("AppendPayload(DecodePayload(%q)) = %q", tc.in, enc)
		}
	}
}

func TestDecodePayloadRefuses(t *testing.T) {
	for _, in := range []string{
		"",             // nothing
		"\x1e",         // two empty packets
		"3\x1e",        // ends with a separator
		"\x1e3",        // starts with one
		"3\x1e\x1e40",  // an empty packet between two
		"7", "x", "{}", // unknown types
		"b!!!!", "bAQI", "bAQ=", "bAR==", // not base64, unpadded, short padding, non-zero pad bits
		"bAQ\nI=", "bAQ\rI=", // line breaks the decoder would skip
	} {
		if got, err := DecodePayload([]byte(in)); !errors.Is(err, ErrPayload) {
			t.Errorf("DecodePayload(%q) = %q, %v; want an ErrPayload", in, got, err)
		}
	}
}

func TestJoinFrames(t *testing.T) {
	frames := [][]byte{[]byte(`40{"sid":"x"}`), []byte("2"), EventFrame("NOTIFICATION_READ", []byte(`{"id":1}`))}
	got := joinFrames(frames)
	if want := "40{\"sid\":\"x\"}\x1e2\x1e42[\"NOTIFICATION_READ\",{\"id\":1}]"; string(got) != want {
		t.Fatalf("joinFrames = %q, want %q", got, want)
	}
	ps, err := DecodePayload(got)
	if err != nil || len(ps) != 3 || ps[1].Type != EnginePing || string(ps[2].Data) != `2["NOTIFICATION_READ",{"id":1}]` {
		t.Fatalf("the joined payload decodes to %q, %v", ps, err)
	}
	if got := joinFrames([][]byte{[]byte("6")}); string(got) != "6" {
		t.Errorf("one frame: %q", got)
	}
}

func samePackets(a, b []EnginePacket) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || a[i].Binary != b[i].Binary || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

// FuzzDecodePayload checks that no body panics the payload decoder and that what it accepts
// encodes back to the same bytes (the framing is one-to-one). Seeds are in
// testdata/fuzz/FuzzDecodePayload.
func FuzzDecodePayload(f *testing.F) {
	for _, s := range []string{"3", "40\x1e3", "41\x1e1", `42["a",1]`, "451-[\"a\",{\"_placeholder\":true,\"num\":0}]\x1ebAQID", "b", "2probe", "6\x1e6"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ps, err := DecodePayload(in)
		if err != nil {
			if !errors.Is(err, ErrPayload) {
				t.Fatalf("DecodePayload(%q): an error that is not ErrPayload: %v", in, err)
			}
			return
		}
		if len(ps) == 0 {
			t.Fatalf("DecodePayload(%q) accepted no packets", in)
		}
		if enc := AppendPayload(nil, ps...); !bytes.Equal(enc, in) {
			t.Fatalf("DecodePayload(%q) = %q encodes to %q", in, ps, enc)
		}
	})
}
