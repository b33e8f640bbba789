// Package temporalcodec keeps personal data and secrets out of Temporal: every payload
// Herald writes to Temporal (workflow and activity inputs and results, signals, memos,
// summaries, failure messages) is encrypted with AES-256-GCM before it leaves the process,
// and decrypted when it comes back. Temporal's database and its Web UI then hold only
// ciphertext; the codec server (server.go) lets an operator's Web UI or CLI decode it.
//
// Each encrypted payload names its key in its metadata ("encryption-key-id"), so keys can
// be rotated while old histories still decode; payloads written before encryption (plain
// "json/plain" and the like) decode unchanged. Search attributes are not payloads the
// codec sees: Temporal must read them to index them (workflows/visibility).
package temporalcodec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

// Metadata of an encrypted payload.
const (
	// Encoding is the "encoding" of an encrypted payload (the whole original payload,
	// metadata included, is the plaintext).
	Encoding = "binary/encrypted"
	// MetadataKeyID names the key a payload was encrypted with.
	MetadataKeyID = "encryption-key-id"
)

// Codec encrypts payloads with its current key and decrypts with any key it knows. It is
// a converter.PayloadCodec, safe for concurrent use.
type Codec struct {
	current string
	aeads   map[string]cipher.AEAD
	ids     []string
	plain   bool
}

// DecodeOnly returns a codec that writes payloads as they are and still decrypts: every
// process of a fleet can read encrypted payloads before any writes them (rolling upgrade).
func (c *Codec) DecodeOnly() *Codec {
	d := *c
	d.plain = true
	return &d
}

// Encrypts reports whether Encode encrypts (false for a DecodeOnly codec).
func (c *Codec) Encrypts() bool { return !c.plain }

// New returns a codec that encrypts with keys[0] and decrypts with every key.
func New(keys ...Key) (*Codec, error) {
	if len(keys) == 0 {
		return nil, fmt.Errorf("temporal codec: no key")
	}
	c := &Codec{current: keys[0].ID, aeads: make(map[string]cipher.AEAD, len(keys))}
	for _, k := range keys {
		if len(k.Secret) != KeySize {
			return nil, fmt.Errorf("temporal codec: key %s is %d bytes, want %d", k.ID, len(k.Secret), KeySize)
		}
		if _, dup := c.aeads[k.ID]; dup {
			continue
		}
		block, err := aes.NewCipher(k.Secret)
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		c.aeads[k.ID] = aead
		c.ids = append(c.ids, k.ID)
	}
	return c, nil
}

// FromConfig builds Herald's codec: the keys of HERALD_TEMPORAL_CODEC_KEYS (the first
// encrypts) when set, then the key derived from the secret key, which encrypts when no
// explicit key is set and always decrypts (histories written before explicit keys).
func FromConfig(secretKey, keysSpec string) (*Codec, error) {
	explicit, problems := ParseKeys(keysSpec)
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s", problems[0])
	}
	derived, err := DeriveKey(secretKey)
	if err != nil {
		return nil, err
	}
	return New(append(explicit, derived)...)
}

// KeyID is the id of the key new payloads are encrypted with.
func (c *Codec) KeyID() string { return c.current }

// KeyIDs are the ids of every key that decrypts, the current one first.
func (c *Codec) KeyIDs() []string { return append([]string(nil), c.ids...) }

// Encode encrypts each payload whole (metadata and data) under the current key, with the
// key id as additional data so it cannot be swapped.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if c.plain {
		return payloads, nil
	}
	aead := c.aeads[c.current]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return payloads, fmt.Errorf("temporal codec: marshal payload: %w", err)
		}
		sealed := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
		if _, err := rand.Read(sealed); err != nil {
			return payloads, fmt.Errorf("temporal codec: no randomness: %w", err)
		}
		sealed = aead.Seal(sealed, sealed, plain, []byte(c.current))
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{converter.MetadataEncoding: []byte(Encoding), MetadataKeyID: []byte(c.current)},
			Data:     sealed,
		}
	}
	return out, nil
}

// Decode decrypts the encrypted payloads and passes every other one through unchanged
// (histories written before encryption). A payload of an unknown key, or one that does not
// authenticate, is an error naming the key id.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != Encoding {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		aead, ok := c.aeads[id]
		if !ok {
			return payloads, fmt.Errorf("temporal codec: payload encrypted with key %q, which is not configured (HERALD_TEMPORAL_CODEC_KEYS, or the HERALD_SECRET_KEY it was written under)", id)
		}
		data := p.GetData()
		if len(data) < aead.NonceSize() {
			return payloads, fmt.Errorf("temporal codec: encrypted payload of key %q is truncated", id)
		}
		n := aead.NonceSize()
		plain, err := aead.Open(nil, data[:n], data[n:], []byte(id))
		if err != nil {
			return payloads, fmt.Errorf("temporal codec: payload of key %q does not decrypt (tampered, or another key under the same id)", id)
		}
		dp := &commonpb.Payload{}
		if err := proto.Unmarshal(plain, dp); err != nil {
			return payloads, fmt.Errorf("temporal codec: decrypted payload of key %q: %w", id, err)
		}
		out[i] = dp
	}
	return out, nil
}

// DataConverter is the default converter (JSON, protobuf, …) with every payload passed
// through the codec.
func (c *Codec) DataConverter() converter.DataConverter {
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
}

// FailureConverter converts errors with the codec's data converter and moves their
// messages and stack traces into the encoded attributes: an error message (a provider's
// answer naming an address, a fetch step's response) is as private as a payload.
func (c *Codec) FailureConverter() converter.FailureConverter {
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter: c.DataConverter(), EncodeCommonAttributes: true,
	})
}

// Apply sets the codec's data and failure converters on client options; workers built on
// the client inherit them.
func (c *Codec) Apply(opts client.Options) client.Options {
	opts.DataConverter = c.DataConverter()
	opts.FailureConverter = c.FailureConverter()
	return opts
}
