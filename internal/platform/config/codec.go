package config

import (
	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/platform/temporalcodec"
)

// CodecConfig configures the encryption of what Herald writes to Temporal and the codec
// server that lets an operator's Temporal Web UI or CLI read it (docs/operations.md).
type CodecConfig struct {
	// Keys are explicit payload keys (id=base64, the first encrypts, every one decrypts);
	// empty: the key derived from HERALD_SECRET_KEY encrypts. The derived key always decrypts.
	Keys string `env:"HERALD_TEMPORAL_CODEC_KEYS" secret:"true" dflt:"— (a key derived from HERALD_SECRET_KEY)" example:"k2=q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=,k1=ASNFZ4mrze8BI0VniavN7wEjRWeJq83vASNFZ4mrze8=" desc:"keys that encrypt every payload Herald writes to Temporal (AES-256-GCM): comma-separated id=key pairs, each key 32 bytes in base64 (openssl rand -base64 32); the first encrypts, all decrypt, and so does the key derived from HERALD_SECRET_KEY, which encrypts when this is unset. Rotate by putting a new key first and keeping the old ones while histories written with them may be read"`
	// Encrypt false writes payloads plain while still decoding encrypted ones: the first
	// step of a rolling upgrade, so every process can read before any writes ciphertext.
	Encrypt bool `env:"HERALD_TEMPORAL_ENCRYPT" envDefault:"true" example:"false" desc:"encrypt the payloads Herald writes to Temporal; false writes them plain but still reads encrypted ones: the first step of a rolling upgrade of several processes from a version without encryption (every process must read it before any writes it), then back to true"`
	// ServerToken turns the codec server on (/codec/encode, /codec/decode on the API
	// listener) and is the bearer token it requires.
	ServerToken string `env:"HERALD_CODEC_SERVER_TOKEN" secret:"true" verbatim:"true" dflt:"— (codec server off; herald dev serves it to loopback callers without a token)" example:"codec-operator-token-0123456789" desc:"turns on the codec server at /codec on the API listener (POST /codec/decode and /codec/encode, Temporal's codec server protocol) and is the bearer token every call must present (Authorization: Bearer …); at least 16 characters"`
	// ServerOrigins are the browser origins of Temporal Web UIs allowed to call the codec
	// server (CORS, with credentials).
	ServerOrigins OriginList `env:"HERALD_CODEC_SERVER_ORIGINS" dflt:"— (herald dev: its Temporal UI)" example:"https://temporal.example.com,https://cloud.temporal.io" desc:"comma-separated origins of the Temporal Web UIs that may call the codec server from a browser (CORS with credentials); the CLI needs none"`
}

// MinCodecTokenLength is the shortest HERALD_CODEC_SERVER_TOKEN accepted.
const MinCodecTokenLength = 16

func (cc CodecConfig) check(p *herald.Problems) {
	_, problems := temporalcodec.ParseKeys(cc.Keys)
	for _, s := range problems {
		p.Addf("%s", s)
	}
	if cc.ServerToken != "" && len(cc.ServerToken) < MinCodecTokenLength {
		p.Addf("HERALD_CODEC_SERVER_TOKEN must be at least %d characters (openssl rand -base64 32)", MinCodecTokenLength)
	}
}

func (cc CodecConfig) summary() []any {
	keys, _ := temporalcodec.ParseKeys(cc.Keys)
	codecServer := "off"
	if cc.ServerToken != "" {
		codecServer = "on"
	}
	return []any{"temporalEncrypt", cc.Encrypt, "temporalCodecKeys", len(keys), "codecServer", codecServer}
}
