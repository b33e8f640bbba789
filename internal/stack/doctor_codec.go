package stack

import (
	"context"
	"fmt"
	"strings"

	"github.com/heraldhq/herald/internal/ops/doctor"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/temporalcodec"
)

// codecKeyCheck is herald doctor's "codec-key" finding: the payload codec can be built from
// this process's configuration (the same call Open makes), which key new payloads are
// encrypted with, and whether encryption is on.
func codecKeyCheck(cfg config.Config) func(context.Context) doctor.Finding {
	return func(context.Context) doctor.Finding {
		f := doctor.Finding{Check: "codec-key"}
		if cfg.SecretKey == "" && cfg.Codec.Keys == "" {
			f.Level, f.Message = doctor.Fail, "no key to encrypt Temporal payloads with (HERALD_SECRET_KEY is unset)"
			f.Fix = "Set HERALD_SECRET_KEY (or HERALD_TEMPORAL_CODEC_KEYS), the same on every API and worker process."
			return f
		}
		codec, err := temporalcodec.FromConfig(cfg.SecretKey, cfg.Codec.Keys)
		if err != nil {
			f.Level, f.Message = doctor.Fail, err.Error()
			f.Fix = "Correct HERALD_TEMPORAL_CODEC_KEYS: comma-separated id=base64 entries of 32-byte keys, the encrypting one first."
			return f
		}
		ids := codec.KeyIDs()
		if !cfg.Codec.Encrypt {
			f.Level = doctor.Warn
			f.Message = fmt.Sprintf("HERALD_TEMPORAL_ENCRYPT=false: payloads are written to Temporal in clear (keys that decrypt: %s)", strings.Join(ids, ", "))
			f.Fix = "Set HERALD_TEMPORAL_ENCRYPT=true once every API and worker process runs this version (docs/operations.md)."
			return f
		}
		f.Level = doctor.OK
		f.Message = fmt.Sprintf("payloads encrypted with key %s; %d key(s) decrypt", codec.KeyID(), len(ids))
		return f
	}
}
