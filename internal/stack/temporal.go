package stack

import (
	"context"
	"errors"

	"github.com/heraldhq/herald/internal/platform/temporalconn"
)

// CheckTemporal connects to Temporal once, the way the clients do, at the start of herald
// api and herald worker. A setting that must change (a CA that does not sign the
// frontend's certificate, a client certificate the frontend requires or refuses, TLS
// spoken to a plaintext port, a refused API key) is returned as a *temporalconn.SetupError
// naming it, and the process stops there rather than at the first send. A frontend that
// does not answer yet is logged and not an error: the clients keep trying, and sends wait
// in the outbox meanwhile.
func (s *Stack) CheckTemporal(ctx context.Context) error {
	err := s.TemporalConn.Check(ctx, s.Temporal)
	var setup *temporalconn.SetupError
	switch {
	case errors.As(err, &setup):
		return err
	case err != nil:
		s.Log.Warn("temporal does not answer yet; the clients keep trying", "temporal", s.Cfg.TemporalAddress, "error", err)
	default:
		s.Log.Info("temporal connection checked", "temporal", s.Cfg.TemporalAddress, "namespace", s.Cfg.TemporalNamespace,
			"tls", s.Cfg.TemporalClient.TLS, "clientCertificate", s.Cfg.TemporalClient.MTLS(), "apiKey", s.Cfg.TemporalClient.APIKey != "")
	}
	return nil
}
