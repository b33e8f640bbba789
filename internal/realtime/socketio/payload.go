package socketio

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
)

// RecordSeparator separates the packets of an Engine.IO v4 long-polling payload.
const RecordSeparator = 0x1e

// EnginePacket is one Engine.IO packet of a long-polling payload.
type EnginePacket struct {
	// Type is one of EngineOpen … EngineNoop.
	Type byte
	// Data follows the type character; for binary packets it is the decoded bytes.
	Data []byte
	// Binary packets travel as 'b' + base64 in a payload and are always messages.
	Binary bool
}

// ErrPayload is wrapped by every payload decoding error.
var ErrPayload = errors.New("engine.io: malformed payload")

func badPayload(why string) error { return fmt.Errorf("%w: %s", ErrPayload, why) }

// base64Std refuses non-canonical padding bits, so what decodes encodes back the same.
var base64Std = base64.StdEncoding.Strict()

// DecodePayload splits the body of a long-polling POST into its packets, as engine.io-parser
// v5 encodes them: packets joined by the record separator (0x1e), each a type character
// and its data, or 'b' and the base64 of a binary message.
func DecodePayload(body []byte) ([]EnginePacket, error) {
	if len(body) == 0 {
		return nil, badPayload("empty payload")
	}
	segs := bytes.Split(body, []byte{RecordSeparator})
	out := make([]EnginePacket, 0, len(segs))
	for _, seg := range segs {
		if len(seg) == 0 {
			return nil, badPayload("empty packet")
		}
		switch c := seg[0]; {
		case c == 'b':
			// The decoder skips line breaks; refusing them keeps decoding one-to-one.
			if bytes.ContainsAny(seg[1:], "\r\n") {
				return nil, badPayload("line break in base64 data")
			}
			data, err := base64Std.DecodeString(string(seg[1:]))
			if err != nil {
				return nil, badPayload("invalid base64 data")
			}
			out = append(out, EnginePacket{Type: EngineMessage, Data: data, Binary: true})
		case c >= EngineOpen && c <= EngineNoop:
			out = append(out, EnginePacket{Type: c, Data: seg[1:]})
		default:
			return nil, badPayload("unknown packet type")
		}
	}
	return out, nil
}

// AppendPayload encodes packets after dst in the form DecodePayload reads. Text data must
// not hold the record separator (JSON never does: encoding/json escapes it).
func AppendPayload(dst []byte, packets ...EnginePacket) []byte {
	for i, p := range packets {
		if i > 0 {
			dst = append(dst, RecordSeparator)
		}
		if p.Binary {
			dst = append(dst, 'b')
			dst = base64Std.AppendEncode(dst, p.Data)
			continue
		}
		dst = append(dst, p.Type)
		dst = append(dst, p.Data...)
	}
	return dst
}

// joinFrames joins encoded text packets (frames as a WebSocket carries them) into one
// long-polling payload.
func joinFrames(frames [][]byte) []byte {
	n := len(frames)
	for _, f := range frames {
		n += len(f)
	}
	out := make([]byte, 0, n)
	for i, f := range frames {
		if i > 0 {
			out = append(out, RecordSeparator)
		}
		out = append(out, f...)
	}
	return out
}

// String is the packet as a payload carries it.
func (p EnginePacket) String() string { return string(AppendPayload(nil, p)) }
