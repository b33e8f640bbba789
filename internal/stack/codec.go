package stack

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"

	"github.com/heraldhq/herald/internal/platform/temporalcodec"
)

// CodecPath is where the codec server is mounted on the API listener: the endpoint to
// give the Temporal Web UI or CLI is <base URL>/codec (they append /encode and /decode).
const CodecPath = "/codec"

// mountCodecServer serves Temporal's codec server protocol at /codec/encode and
// /codec/decode when HERALD_CODEC_SERVER_TOKEN is set (or, for herald dev, to loopback
// callers); otherwise the paths are not routed at all.
func (s *Stack) mountCodecServer(r fiber.Router) {
	srv := temporalcodec.NewServer(s.Codec, temporalcodec.ServerOptions{
		Token: s.Cfg.Codec.ServerToken, Origins: s.Cfg.Codec.ServerOrigins,
		LoopbackWithoutToken: s.CodecLoopbackWithoutToken, MaxBody: int64(s.Cfg.BodyLimit),
		Log: s.Log.With("component", "codec-server"),
	})
	if !srv.Enabled() {
		return
	}
	h := adaptor.HTTPHandler(srv)
	for _, p := range []string{CodecPath + temporalcodec.PathEncode, CodecPath + temporalcodec.PathDecode} {
		r.Post(p, h)
		r.Options(p, h)
	}
}
