package temporalcodec

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
)

func testKey(t testing.TB, id string) Key {
	t.Helper()
	k := Key{ID: id, Secret: make([]byte, KeySize)}
	if _, err := rand.Read(k.Secret); err != nil {
		t.Fatal(err)
	}
	return k
}

// profile is the kind of value flow runs carry: a recipient's profile and a fetch header.
type profile struct {
	Email   string
	Phone   string
	Headers map[string]string
}

var alice = profile{Email: "alice@example.com", Phone: "+15550100", Headers: map[string]string{"Authorization": "Bearer sk_live_customer_key"}}

func TestEncryptedPayloadRoundTripsAndHidesItsContent(t *testing.T) {
	c, err := New(testKey(t, "k1"))
	if err != nil {
		t.Fatal(err)
	}
	dc := c.DataConverter()
	p, err := dc.ToPayload(alice)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(p.Metadata[converter.MetadataEncoding]); got != Encoding {
		t.Errorf("encoding %q, want %q", got, Encoding)
	}
	if got := string(p.Metadata[MetadataKeyID]); got != "k1" {
		t.Errorf("key id %q", got)
	}
	for _, secret := range []string{alice.Email, alice.Phone, "sk_live_customer_key", "json/plain"} {
		if bytes.Contains(p.Data, []byte(secret)) || strings.Contains(p.String(), secret) {
			t.Errorf("the encrypted payload shows %q", secret)
		}
	}
	var back profile
	if err := dc.FromPayload(p, &back); err != nil {
		t.Fatal(err)
	}
	if back.Email != alice.Email || back.Headers["Authorization"] != alice.Headers["Authorization"] {
		t.Errorf("decoded %+v", back)
	}
	// Two encryptions of the same value differ (random nonce).
	p2, _ := dc.ToPayload(alice)
	if bytes.Equal(p.Data, p2.Data) {
		t.Error("same ciphertext twice")
	}
}

// Histories written before encryption hold plain payloads: they decode as before.
func TestPlainPayloadDecodesUnchanged(t *testing.T) {
	c, _ := New(testKey(t, "k1"))
	plain, err := converter.GetDefaultDataConverter().ToPayload(alice)
	if err != nil {
		t.Fatal(err)
	}
	var back profile
	if err := c.DataConverter().FromPayload(plain, &back); err != nil || back.Email != alice.Email {
		t.Fatalf("plain payload: %+v, %v", back, err)
	}
	out, err := c.Decode([]*commonpb.Payload{plain})
	if err != nil || out[0] != plain {
		t.Errorf("decode changed a plain payload: %v", err)
	}
}

func TestRotationKeepsOldPayloadsReadable(t *testing.T) {
	k1, k2 := testKey(t, "k1"), testKey(t, "k2")
	old, _ := New(k1)
	enc, err := old.Encode([]*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"alice@example.com"`)}})
	if err != nil {
		t.Fatal(err)
	}
	rotated, _ := New(k2, k1)
	if rotated.KeyID() != "k2" {
		t.Errorf("current key %s", rotated.KeyID())
	}
	dec, err := rotated.Decode(enc)
	if err != nil || string(dec[0].Data) != `"alice@example.com"` {
		t.Fatalf("rotated codec: %v %v", dec, err)
	}
	fresh, _ := rotated.Encode(dec)
	if string(fresh[0].Metadata[MetadataKeyID]) != "k2" {
		t.Errorf("new payloads use %s", fresh[0].Metadata[MetadataKeyID])
	}
	// Without the old key, the payload names the key it needs.
	_, err = mustNew(t, k2).Decode(enc)
	if err == nil || !strings.Contains(err.Error(), `"k1"`) {
		t.Errorf("decode without the old key: %v", err)
	}
}

func mustNew(t *testing.T, keys ...Key) *Codec {
	c, err := New(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTamperedPayloadsAreRefused(t *testing.T) {
	k1 := testKey(t, "k1")
	c := mustNew(t, k1, testKey(t, "k2"))
	enc, _ := c.Encode([]*commonpb.Payload{{Data: []byte("x")}})
	flipped := &commonpb.Payload{Metadata: enc[0].Metadata, Data: append([]byte(nil), enc[0].Data...)}
	flipped.Data[len(flipped.Data)-1] ^= 1
	// The key id is authenticated: relabelling a payload with another configured key fails.
	relabelled := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte(Encoding), MetadataKeyID: []byte("k2")}, Data: enc[0].Data}
	truncated := &commonpb.Payload{Metadata: enc[0].Metadata, Data: enc[0].Data[:5]}
	for name, p := range map[string]*commonpb.Payload{"flipped": flipped, "relabelled": relabelled, "truncated": truncated} {
		if _, err := c.Decode([]*commonpb.Payload{p}); err == nil {
			t.Errorf("%s payload decoded", name)
		}
	}
}

func TestFromConfig(t *testing.T) {
	derived, err := DeriveKey("0123456789abcdef-secret")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := DeriveKey("0123456789abcdef-secret")
	other, _ := DeriveKey("another secret key, 16+")
	if !bytes.Equal(derived.Secret, again.Secret) || derived.ID != again.ID || derived.ID == other.ID || !strings.HasPrefix(derived.ID, DerivedPrefix) {
		t.Errorf("derived ids %s %s %s", derived.ID, again.ID, other.ID)
	}
	c, err := FromConfig("0123456789abcdef-secret", "")
	if err != nil || c.KeyID() != derived.ID {
		t.Fatalf("default codec: %v %v", c, err)
	}
	k := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	c, err = FromConfig("0123456789abcdef-secret", "new="+k+", old="+base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32)))
	if err != nil || c.KeyID() != "new" || strings.Join(c.KeyIDs(), ",") != "new,old,"+derived.ID {
		t.Fatalf("explicit keys: %v %v", c.KeyIDs(), err)
	}
	_, problems := ParseKeys("a=" + k + ",a=" + k + ",bad id=" + k + ",short=AAAA,noequals," + DerivedPrefix + "x=" + k)
	if len(problems) != 5 {
		t.Errorf("problems %q", problems)
	}
	for _, p := range problems {
		if strings.Contains(p, k) {
			t.Errorf("a problem shows the key: %s", p)
		}
	}
}

// BenchmarkCodec encodes and decodes a typical flow-run payload (a recipient with a
// profile, send data and a fetch's headers, about 1 KB of JSON).
func BenchmarkCodec(b *testing.B) {
	c := mustNewB(b)
	in := map[string]any{
		"AppID": 1, "RequestID": "01a20ad5-d5f6-70b7-8034-f7877819b852",
		"Recipient": map[string]any{"Identifier": "alice", "Profile": map[string]any{
			"email": "alice@example.com", "phone": "+15550100", "firstName": "Alice", "lastName": "Liddell",
			"custom": map[string]any{"plan": "pro", "company": "Wonderland Ltd", "locale": "en-GB"}}},
		"Data":    map[string]any{"order": "A-1042", "total": "59.90", "items": []string{"tea", "cake", "hat"}, "note": strings.Repeat("x", 400)},
		"Headers": map[string]string{"Authorization": "Bearer sk_live_0123456789abcdef", "X-Customer": "wonderland"},
	}
	plain, err := converter.GetDefaultDataConverter().ToPayload(in)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(plain.Data)))
		for b.Loop() {
			if _, err := c.Encode([]*commonpb.Payload{plain}); err != nil {
				b.Fatal(err)
			}
		}
	})
	enc, _ := c.Encode([]*commonpb.Payload{plain})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(plain.Data)))
		for b.Loop() {
			if _, err := c.Decode(enc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func mustNewB(b *testing.B) *Codec {
	c, err := New(testKey(b, "bench"))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// A decode-only codec (the first step of a rolling upgrade) writes plain payloads and still
// reads what an encrypting process wrote.
func TestDecodeOnlyCodec(t *testing.T) {
	c := mustNew(t, testKey(t, "k1"))
	d := c.DecodeOnly()
	if !c.Encrypts() || d.Encrypts() {
		t.Fatal("Encrypts")
	}
	p, err := d.DataConverter().ToPayload(alice)
	if err != nil || string(p.Metadata[converter.MetadataEncoding]) != "json/plain" {
		t.Fatalf("decode-only wrote %v %v", p, err)
	}
	enc, _ := c.DataConverter().ToPayload(alice)
	var back profile
	if err := d.DataConverter().FromPayload(enc, &back); err != nil || back.Email != alice.Email {
		t.Errorf("decode-only read %+v %v", back, err)
	}
}
