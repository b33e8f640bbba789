// Package socketio serves realtime events over the Socket.IO v5 protocol on Engine.IO v4, so
// the stock socket.io-client connects with its default options: HTTP long-polling first,
// then the upgrade to WebSocket (or WebSocket directly with transports: ["websocket"]). It
// speaks just what an inbox needs: the handshake, heartbeats, CONNECT to the main namespace
// with auth, server-to-client events and disconnects. docs/realtime.md says why it is
// written here rather than adopted.
package socketio

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// Engine.IO packet types (the first character of every WebSocket frame and of every packet
// of a long-polling payload).
const (
	EngineOpen    = '0'
	EngineClose   = '1'
	EnginePing    = '2'
	EnginePong    = '3'
	EngineMessage = '4'
	EngineUpgrade = '5'
	EngineNoop    = '6'
)

// Socket.IO packet types (the character after an Engine.IO message's '4').
const (
	Connect      = '0'
	Disconnect   = '1'
	Event        = '2'
	Ack          = '3'
	ConnectError = '4'
	BinaryEvent  = '5'
	BinaryAck    = '6'
)

// Packet is a decoded Socket.IO packet.
type Packet struct {
	Type byte
	// Attachments counts the binary attachments of binary packets.
	Attachments int
	// Namespace is "/" when the packet names none.
	Namespace string
	// ID is the acknowledgement id, -1 when absent.
	ID int64
	// Data is the JSON payload as received, nil when absent.
	Data json.RawMessage
}

// ErrPacket is wrapped by every parse error.
var ErrPacket = errors.New("socket.io: malformed packet")

func bad(why string) error { return errors.Join(ErrPacket, errors.New(why)) }

// Parse decodes a Socket.IO packet (without its Engine.IO '4'), validating the payload as
// socket.io-parser does: CONNECT carries an object or nothing, DISCONNECT nothing, EVENT an
// array starting with the event name (or an ack id), ACK an array, CONNECT_ERROR an object
// or a string.
func Parse(s []byte) (Packet, error) {
	p := Packet{Namespace: "/", ID: -1}
	if len(s) == 0 {
		return p, bad("empty packet")
	}
	p.Type = s[0]
	if p.Type < Connect || p.Type > BinaryAck {
		return p, bad("unknown packet type")
	}
	i := 1
	if p.Type == BinaryEvent || p.Type == BinaryAck {
		j := bytes.IndexByte(s[i:], '-')
		if j < 1 {
			return p, bad("illegal attachments")
		}
		n, err := strconv.Atoi(string(s[i : i+j]))
		if err != nil || n < 0 || !digits(s[i:i+j]) {
			return p, bad("illegal attachments")
		}
		p.Attachments, i = n, i+j+1
	}
	if i < len(s) && s[i] == '/' {
		j := bytes.IndexByte(s[i:], ',')
		if j < 0 {
			p.Namespace, i = string(s[i:]), len(s)
		} else {
			p.Namespace, i = string(s[i:i+j]), i+j+1
		}
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j > i {
		id, err := strconv.ParseInt(string(s[i:j]), 10, 64)
		if err != nil {
			return p, bad("illegal ack id")
		}
		p.ID, i = id, j
	}
	if i < len(s) {
		p.Data = json.RawMessage(s[i:])
	}
	return p, validate(p)
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// reserved are event names a client may not send.
var reserved = map[string]bool{"connect": true, "connect_error": true, "disconnect": true, "disconnecting": true, "newListener": true, "removeListener": true}

func validate(p Packet) error {
	if p.Data != nil && !json.Valid(p.Data) {
		return bad("payload is not JSON")
	}
	first := firstByte(p.Data)
	switch p.Type {
	case Connect:
		if p.Data != nil && first != '{' {
			return bad("CONNECT payload must be an object")
		}
	case Disconnect:
		if p.Data != nil {
			return bad("DISCONNECT carries no payload")
		}
	case ConnectError:
		if p.Data == nil || (first != '{' && first != '"') {
			return bad("CONNECT_ERROR payload must be an object or a string")
		}
	case Event, BinaryEvent:
		var args []json.RawMessage
		if first != '[' || json.Unmarshal(p.Data, &args) != nil || len(args) == 0 {
			return bad("EVENT payload must be a non-empty array")
		}
		switch c := firstByte(args[0]); {
		case c == '"':
			var name string
			if json.Unmarshal(args[0], &name) != nil || reserved[name] {
				return bad("reserved event name")
			}
		case c == '-' || (c >= '0' && c <= '9'):
		default:
			return bad("EVENT name must be a string or a number")
		}
	case Ack, BinaryAck:
		if first != '[' {
			return bad("ACK payload must be an array")
		}
	}
	return nil
}

// firstByte is the first non-space byte of JSON text, 0 when none.
func firstByte(b []byte) byte {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
	return 0
}

// Append encodes p after dst, in the form Parse reads.
func (p Packet) Append(dst []byte) []byte {
	dst = append(dst, p.Type)
	if p.Type == BinaryEvent || p.Type == BinaryAck {
		dst = strconv.AppendInt(dst, int64(p.Attachments), 10)
		dst = append(dst, '-')
	}
	if p.Namespace != "" && p.Namespace != "/" {
		dst = append(dst, p.Namespace...)
		dst = append(dst, ',')
	}
	if p.ID >= 0 {
		dst = strconv.AppendInt(dst, p.ID, 10)
	}
	return append(dst, p.Data...)
}

// EventFrame is the WebSocket frame of a server-to-client event on the main namespace:
// 42["name",data].
func EventFrame(name string, data json.RawMessage) []byte {
	n, _ := json.Marshal(name)
	out := make([]byte, 0, len(n)+len(data)+6)
	out = append(out, EngineMessage, Event, '[')
	out = append(out, n...)
	if len(data) > 0 {
		out = append(out, ',')
		out = append(out, data...)
	}
	return append(out, ']')
}

// controlFrame is the WebSocket frame of a Socket.IO packet on the main namespace carrying
// v as JSON: CONNECT answers and CONNECT_ERRORs.
func controlFrame(typ byte, namespace string, v any) []byte {
	data, _ := json.Marshal(v)
	return Packet{Type: typ, Namespace: namespace, ID: -1, Data: data}.Append([]byte{EngineMessage})
}
