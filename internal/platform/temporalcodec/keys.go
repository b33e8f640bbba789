package temporalcodec

import (
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// KeySize is the length of every key: AES-256.
const KeySize = 32

// Key is one payload encryption key and the id payloads encrypted with it carry.
type Key struct {
	ID     string
	Secret []byte
}

// derivedInfo is the HKDF info of the key derived from HERALD_SECRET_KEY; a new derivation
// needs a new info (and a new id prefix) so old histories keep decoding.
const derivedInfo = "herald temporal payload codec v1"

// DerivedPrefix starts the id of the key derived from HERALD_SECRET_KEY.
const DerivedPrefix = "sk1-"

// DeriveKey derives the payload key from the secret key (HERALD_SECRET_KEY) with
// HKDF-SHA256. Its id is DerivedPrefix and a short fingerprint of the key itself, so a
// payload encrypted under another secret key is recognised as such (unknown key id) rather
// than failing authentication.
func DeriveKey(secretKey string) (Key, error) {
	if secretKey == "" {
		return Key{}, fmt.Errorf("temporal codec: no secret key to derive the payload key from")
	}
	k, err := hkdf.Key(sha256.New, []byte(secretKey), nil, derivedInfo, KeySize)
	if err != nil {
		return Key{}, err
	}
	fp := sha256.Sum256(append([]byte("herald temporal codec key id\x00"), k...))
	return Key{ID: DerivedPrefix + hex.EncodeToString(fp[:6]), Secret: k}, nil
}

var keyIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// ParseKeys reads HERALD_TEMPORAL_CODEC_KEYS: comma-separated id=key pairs, each key 32
// bytes in standard or URL-safe base64 (padded or not), ids of letters, digits, '.', '_'
// and '-' (at most 64) and unique. Every problem is reported. Blank means none.
func ParseKeys(spec string) ([]Key, []string) {
	var keys []Key
	var problems []string
	seen := map[string]bool{}
	for i, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		id, b64, ok := strings.Cut(item, "=")
		id, b64 = strings.TrimSpace(id), strings.TrimSpace(b64)
		if !ok || b64 == "" {
			problems = append(problems, fmt.Sprintf("HERALD_TEMPORAL_CODEC_KEYS entry %d must be id=base64key", i+1))
			continue
		}
		if !keyIDPattern.MatchString(id) {
			problems = append(problems, fmt.Sprintf("HERALD_TEMPORAL_CODEC_KEYS entry %d: the id must be 1 to 64 letters, digits, '.', '_' or '-'", i+1))
			continue
		}
		if strings.HasPrefix(id, DerivedPrefix) {
			problems = append(problems, fmt.Sprintf("HERALD_TEMPORAL_CODEC_KEYS key %s: ids starting with %s are reserved for the key derived from HERALD_SECRET_KEY", id, DerivedPrefix))
			continue
		}
		if seen[id] {
			problems = append(problems, fmt.Sprintf("HERALD_TEMPORAL_CODEC_KEYS key %s is listed twice", id))
			continue
		}
		seen[id] = true
		secret, err := decodeBase64(b64)
		if err != nil || len(secret) != KeySize {
			problems = append(problems, fmt.Sprintf("HERALD_TEMPORAL_CODEC_KEYS key %s must be %d bytes in base64 (openssl rand -base64 32)", id, KeySize))
			continue
		}
		keys = append(keys, Key{ID: id, Secret: secret})
	}
	return keys, problems
}

func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("not base64")
}
