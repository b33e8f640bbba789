package webpush

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"testing"
)

// decryptPush is the user agent's side of RFC 8291: what a browser does with a push body
// given its subscription private key and auth secret.
func decryptPush(body []byte, uaPriv *ecdh.PrivateKey, authSecret []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("short body")
	}
	salt, rs, idLen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idLen {
		return nil, errors.New("short header")
	}
	asPublic, ciphertext := body[21:21+idLen], body[21+idLen:]
	if uint32(len(ciphertext)) > rs {
		return nil, errors.New("more than one record")
	}
	asKey, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, err
	}
	shared, err := uaPriv.ECDH(asKey)
	if err != nil {
		return nil, err
	}
	cek, nonce, err := deriveKeys(shared, authSecret, uaPriv.PublicKey().Bytes(), asPublic, salt)
	if err != nil {
		return nil, err
	}
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	record, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, err
	}
	record = bytes.TrimRight(record, "\x00")
	if len(record) == 0 || record[len(record)-1] != 0x02 {
		return nil, errors.New("missing last-record delimiter")
	}
	return record[:len(record)-1], nil
}

func b64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// RFC 8291 Appendix A / Section 5: the published keys, salt and resulting message.
const (
	rfcPlaintext = "When I grow up, I want to be a watermelon"
	rfcASPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
	rfcUAPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
	rfcUAPublic  = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
	rfcAuth      = "BTBZMqHH6r4Tts7J_aSIgg"
	rfcSalt      = "DGv6ra1nlYgDCS1FRnbzlw"
	rfcBody      = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
)

func TestEncryptMatchesTheRFC8291Example(t *testing.T) {
	asPriv, err := ecdh.P256().NewPrivateKey(b64(t, rfcASPrivate))
	if err != nil {
		t.Fatal(err)
	}
	body, err := encrypt([]byte(rfcPlaintext), b64(t, rfcUAPublic), b64(t, rfcAuth), asPriv, b64(t, rfcSalt))
	if err != nil {
		t.Fatal(err)
	}
	if got := base64.RawURLEncoding.EncodeToString(body); got != rfcBody {
		t.Errorf("got  %s\nwant %s", got, rfcBody)
	}
}

func TestTheRFCExampleDecrypts(t *testing.T) {
	uaPriv, err := ecdh.P256().NewPrivateKey(b64(t, rfcUAPrivate))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := decryptPush(b64(t, rfcBody), uaPriv, b64(t, rfcAuth))
	if err != nil || string(plain) != rfcPlaintext {
		t.Fatalf("%q %v", plain, err)
	}
}

func TestEncryptRefusesOversizeAndBadKeys(t *testing.T) {
	asPriv, _ := ecdh.P256().NewPrivateKey(b64(t, rfcASPrivate))
	ua, auth, salt := b64(t, rfcUAPublic), b64(t, rfcAuth), b64(t, rfcSalt)
	body, err := encrypt(make([]byte, maxPlaintext), ua, auth, asPriv, salt)
	if err != nil || len(body) != maxBody {
		t.Fatalf("largest payload: %d bytes, %v", len(body), err)
	}
	if _, err := encrypt(make([]byte, maxPlaintext+1), ua, auth, asPriv, salt); err == nil {
		t.Error("oversize payload accepted")
	}
	if _, err := encrypt([]byte("x"), ua[:64], auth, asPriv, salt); err == nil {
		t.Error("truncated p256dh accepted")
	}
	if _, err := encrypt([]byte("x"), ua, auth[:8], asPriv, salt); err == nil {
		t.Error("short auth accepted")
	}
}

func TestDecodeKeyAcceptsEveryBase64Flavour(t *testing.T) {
	raw := []byte{0xfb, 0xff, 0xfe, 0x01}
	for _, s := range []string{
		base64.RawURLEncoding.EncodeToString(raw), base64.URLEncoding.EncodeToString(raw),
		base64.RawStdEncoding.EncodeToString(raw), base64.StdEncoding.EncodeToString(raw),
	} {
		if got, err := decodeKey(s); err != nil || !bytes.Equal(got, raw) {
			t.Errorf("%s: %x %v", s, got, err)
		}
	}
}
