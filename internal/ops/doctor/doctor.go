// Package doctor checks a Herald installation and explains what to fix: the configuration
// and its secret key, the database and its migration level, Temporal (its TLS files, the
// namespace, search attributes), system mail, the public URL and origins, and the apps whose
// users are easy to impersonate. `herald doctor` prints its report; `herald api` and `herald worker` log the
// short form at start-up.
package doctor

import (
	"context"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/temporalconn"
)

// Level grades a finding.
type Level string

// The levels, from good to bad.
const (
	OK   Level = "OK"
	Warn Level = "WARN"
	Fail Level = "FAIL"
)

// Finding is the result of one check: what was found and, unless it is OK, the fix in one
// sentence.
type Finding struct {
	// Check names the check ("config", "secret-key", "database", "migrations",
	// "temporal-tls", "temporal", "namespace", "search-attributes", "codec-key", "smtp",
	// "public-url", "origins", "apps").
	Check   string `json:"check"`
	Level   Level  `json:"level"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// Report is every finding of a run, in the order the checks ran.
type Report struct {
	Findings []Finding `json:"findings"`
}

// Failed reports whether any finding is a FAIL.
func (r Report) Failed() bool { return r.Count(Fail) > 0 }

// Count is how many findings have level l.
func (r Report) Count(l Level) int {
	n := 0
	for _, f := range r.Findings {
		if f.Level == l {
			n++
		}
	}
	return n
}

// Doctor holds what the checks look at. The caller opens the connections (a failed one is
// given as its error, and the checks needing it report that) and closes them.
type Doctor struct {
	Cfg config.Config
	// ConfigErr is config.Load's error: every bad value, or nil.
	ConfigErr error
	// SecretKeyErr is why the secret key could not be resolved (unset, and no key file of
	// herald dev); nil when Cfg.SecretKey holds it.
	SecretKeyErr error
	// DB is the database, nil when it could not be opened (DBErr says why).
	DB    *db.DB
	DBErr error
	// Temporal is a client of the configured frontend and namespace (lazy or dialled), nil
	// when it could not be made (TemporalErr says why).
	Temporal    client.Client
	TemporalErr error
	// TemporalConn is how Temporal is reached (TLS, client certificate, API key); its
	// check names the setting a failed connection needs changed. Nil: only the client's
	// own calls are checked.
	TemporalConn *temporalconn.Conn
	// CodecKey checks the key of the payload codec that encrypts what Herald writes to
	// Temporal (internal/stack builds it the way the stack does). Nil: the check is skipped.
	CodecKey func(ctx context.Context) Finding
	// Timeout bounds each network check (5s when zero).
	Timeout time.Duration
}

// MaxListedApps is how many insecure apps a report names; the rest are counted.
const MaxListedApps = 20

// Run performs every check.
func (d *Doctor) Run(ctx context.Context) Report {
	var r Report
	r.Findings = append(r.Findings, d.configFindings()...)
	r.Findings = append(r.Findings, d.databaseFindings(ctx)...)
	r.Findings = append(r.Findings, d.temporalFindings(ctx)...)
	return r
}

// Problems keeps the WARN and FAIL findings of r: the short form logged at start-up.
func (r Report) Problems() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Level != OK {
			out = append(out, f)
		}
	}
	return out
}

func (d *Doctor) timeout() time.Duration {
	if d.Timeout > 0 {
		return d.Timeout
	}
	return 5 * time.Second
}

func ok(check, msg string) Finding { return Finding{Check: check, Level: OK, Message: msg} }

func warn(check, msg, fix string) Finding {
	return Finding{Check: check, Level: Warn, Message: msg, Fix: fix}
}

func fail(check, msg, fix string) Finding {
	return Finding{Check: check, Level: Fail, Message: msg, Fix: fix}
}
