package stack

import (
	"context"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/ops/doctor"
	"github.com/heraldhq/herald/internal/platform/config"
)

func TestCodecKeyFinding(t *testing.T) {
	good := "k7XH2v9qYb3LmN4pR8sT1wZ6cF0dJ5gA2hK9eU3xV7y="
	cases := []struct {
		name  string
		cfg   config.Config
		level doctor.Level
		says  string
	}{
		{"derived key", config.Config{SecretKey: good, Codec: config.CodecConfig{Encrypt: true}}, doctor.OK, "payloads encrypted with key sk1-"},
		{"explicit key first", config.Config{SecretKey: good, Codec: config.CodecConfig{Encrypt: true, Keys: "k2=q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80="}}, doctor.OK, "with key k2; 2 key(s) decrypt"},
		{"encryption off", config.Config{SecretKey: good, Codec: config.CodecConfig{Encrypt: false}}, doctor.Warn, "HERALD_TEMPORAL_ENCRYPT=false"},
		{"no key at all", config.Config{Codec: config.CodecConfig{Encrypt: true}}, doctor.Fail, "HERALD_SECRET_KEY is unset"},
		{"malformed keys", config.Config{SecretKey: good, Codec: config.CodecConfig{Encrypt: true, Keys: "k2=not-base64"}}, doctor.Fail, "k2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := codecKeyCheck(tc.cfg)(context.Background())
			if f.Check != "codec-key" || f.Level != tc.level || !strings.Contains(f.Message, tc.says) {
				t.Fatalf("got %+v, want level %s and a message containing %q", f, tc.level, tc.says)
			}
			if f.Level != doctor.OK && f.Fix == "" {
				t.Fatalf("a %s finding without a fix: %+v", f.Level, f)
			}
		})
	}
}
