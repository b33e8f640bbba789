package stack

import (
	"context"
	"log/slog"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/ops/doctor"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/temporalconn"
)

// temporalClientOptions are the options of every Temporal client Herald makes: the
// stack's (Open adds telemetry) and herald doctor's. The connection settings (TLS, mutual
// TLS, the API key, the timeouts: internal/platform/temporalconn) are applied here, so
// that the doctor connects the way the API and the worker do. A TLS file that cannot be
// read is an error naming its variable.
func temporalClientOptions(cfg config.Config, log *slog.Logger) (client.Options, *temporalconn.Conn, error) {
	log = log.With("component", "temporal")
	conn, err := temporalconn.New(cfg.TemporalAddress, cfg.TemporalNamespace, cfg.TemporalClient, log)
	if err != nil {
		return client.Options{}, nil, err
	}
	return conn.Apply(client.Options{Logger: tlog.NewStructuredLogger(log)}), conn, nil
}

// OpenDoctor prepares `herald doctor`: it resolves the secret key and opens the database
// and a Temporal client the way Open does, recording each failure for the checks to report
// instead of stopping. cfgErr is config.Load's error. The returned function closes what was
// opened.
func OpenDoctor(ctx context.Context, cfg config.Config, cfgErr error, log *slog.Logger) (*doctor.Doctor, func()) {
	d := &doctor.Doctor{Cfg: cfg, ConfigErr: cfgErr}
	if key, err := SecretKey(cfg, false); err != nil {
		d.SecretKeyErr = err
	} else {
		d.Cfg.SecretKey = key
	}
	d.CodecKey = codecKeyCheck(d.Cfg)
	d.DB, d.DBErr = db.Open(ctx, cfg.DatabaseURL, db.PoolSize{MaxConns: 2})
	if opts, conn, err := temporalClientOptions(cfg, log); err != nil {
		d.TemporalErr = err
	} else {
		d.TemporalConn = conn
		d.Temporal, d.TemporalErr = client.NewLazyClient(opts)
	}
	return d, func() {
		if d.DB != nil {
			d.DB.Close()
		}
		if d.Temporal != nil {
			d.Temporal.Close()
		}
	}
}

// Doctor is the doctor over this stack's own connections: the short form that herald api
// and herald worker log at start-up.
func (s *Stack) Doctor() *doctor.Doctor {
	return &doctor.Doctor{Cfg: s.Cfg, DB: s.DB, Temporal: s.Temporal, TemporalConn: s.TemporalConn, CodecKey: codecKeyCheck(s.Cfg)}
}

// LogDoctor runs the checks and logs the WARN and FAIL findings. It never stops the
// process: whatever must stop start-up already did (config.Load, Open).
func (s *Stack) LogDoctor(ctx context.Context) {
	s.Doctor().Run(ctx).Log(ctx, s.Log.With("component", "doctor"))
}
