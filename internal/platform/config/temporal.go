package config

import (
	"strings"
	"time"

	herald "github.com/heraldhq/herald"
)

// TemporalClientConfig says how every Temporal client of Herald (the API's, the worker's,
// herald doctor's) connects to the frontend at HERALD_TEMPORAL_ADDRESS: TLS and its server
// CA and name, the client certificate of mutual TLS (re-read when the files change), the
// API key of Temporal Cloud, and the timeouts (internal/platform/temporalconn builds the
// connection from it; docs/deployment.md explains each setting).
type TemporalClientConfig struct {
	// TLS turns on TLS with the system's roots. It is on when any other TLS setting or the
	// API key is set and HERALD_TEMPORAL_TLS is not; Load resolves it.
	TLS bool `env:"HERALD_TEMPORAL_TLS" envDefault:"false" dflt:"false (true when a CA, client certificate, server name or API key is set)" example:"true" desc:"connect to Temporal over TLS, verifying the server against the system's roots (or HERALD_TEMPORAL_TLS_CA_FILE); Temporal Cloud and any cluster with TLS on need it. Setting false while a TLS file is set is an error; false with an API key sends the key in clear (a sidecar that adds TLS)"`
	// CAFile is a PEM file of the CAs that sign the frontend's certificate; empty: the
	// system's roots.
	CAFile string `env:"HERALD_TEMPORAL_TLS_CA_FILE" dflt:"— (the system's roots)" example:"/etc/herald/temporal/ca.crt" desc:"PEM file of the CA certificates that sign the Temporal frontend's certificate (a self-hosted cluster's own CA); read at start-up (a new CA needs a restart)"`
	// CertFile and KeyFile are the client certificate and key of mutual TLS (PEM); both or
	// neither. They are re-read when either file changes, for the next connection.
	CertFile string `env:"HERALD_TEMPORAL_TLS_CERT_FILE" example:"/etc/herald/temporal/tls.crt" desc:"PEM client certificate (with its intermediates) for mutual TLS, with HERALD_TEMPORAL_TLS_KEY_FILE; re-read when the file changes (cert-manager rotation), so new connections present the new certificate without a restart"`
	KeyFile  string `env:"HERALD_TEMPORAL_TLS_KEY_FILE" example:"/etc/herald/temporal/tls.key" desc:"PEM private key of HERALD_TEMPORAL_TLS_CERT_FILE; re-read with it"`
	// ServerName is the name the frontend's certificate must carry when it is not the host
	// of HERALD_TEMPORAL_ADDRESS (SNI too).
	ServerName string `env:"HERALD_TEMPORAL_TLS_SERVER_NAME" dflt:"— (the host of HERALD_TEMPORAL_ADDRESS)" example:"temporal-frontend.temporal.svc" desc:"name the Temporal frontend's certificate must carry (and the SNI sent) when it differs from the host of HERALD_TEMPORAL_ADDRESS"`
	// APIKey authenticates to Temporal Cloud (Authorization: Bearer on every call).
	APIKey string `env:"HERALD_TEMPORAL_API_KEY" secret:"true" example:"eyJhbGciOiJFUzI1NiJ9.example.key" desc:"Temporal Cloud API key, sent as Authorization: Bearer on every call; turns TLS on unless HERALD_TEMPORAL_TLS=false. Use instead of, or with, the client certificate"`
	// ConnectTimeout bounds one connection attempt (TCP and TLS handshake) and the
	// start-up check of the connection.
	ConnectTimeout time.Duration `env:"HERALD_TEMPORAL_CONNECT_TIMEOUT" envDefault:"10s" min:"1s" example:"30s" desc:"bound on one connection attempt to Temporal (TCP and TLS handshake), and on the start-up check of herald api and herald worker; failed attempts are retried with backoff"`
	// RPCTimeout bounds one attempt of a call to Temporal, long polls excepted.
	RPCTimeout time.Duration `env:"HERALD_TEMPORAL_RPC_TIMEOUT" envDefault:"10s" min:"1s" max:"10s" expect:"a duration from 1s to 10s" example:"5s" desc:"bound on one attempt of a call to Temporal (starting a run, a signal, a health check); the SDK retries failed attempts within the caller's own deadline. Long polls (workers waiting for tasks, waits on a result) are exempt; at most 10s, the SDK's own bound"`
}

// MTLS reports whether a client certificate is configured.
func (t TemporalClientConfig) MTLS() bool { return t.CertFile != "" }

// finish resolves TLS (explicitly set, or implied by the other settings) and reports
// settings that contradict each other.
func (t *TemporalClientConfig) finish(p *herald.Problems, getenv func(string) string) {
	explicit := strings.TrimSpace(getenv("HERALD_TEMPORAL_TLS")) != ""
	files := t.CAFile != "" || t.CertFile != "" || t.KeyFile != "" || t.ServerName != ""
	switch {
	case t.CertFile != "" && t.KeyFile == "":
		p.Addf("HERALD_TEMPORAL_TLS_CERT_FILE is set but HERALD_TEMPORAL_TLS_KEY_FILE is not: mutual TLS needs the client certificate and its key")
	case t.KeyFile != "" && t.CertFile == "":
		p.Addf("HERALD_TEMPORAL_TLS_KEY_FILE is set but HERALD_TEMPORAL_TLS_CERT_FILE is not: mutual TLS needs the client certificate and its key")
	}
	if explicit && !t.TLS && files {
		p.Addf("HERALD_TEMPORAL_TLS is false but HERALD_TEMPORAL_TLS_CA_FILE, _CERT_FILE, _KEY_FILE or _SERVER_NAME is set: remove HERALD_TEMPORAL_TLS=false or the TLS settings")
	}
	if !explicit && (files || t.APIKey != "") {
		// Temporal Cloud takes API keys over TLS only.
		t.TLS = true
	}
}

func (t TemporalClientConfig) summary() []any {
	auth := "none"
	switch {
	case t.APIKey != "" && t.MTLS():
		auth = "mtls+apikey"
	case t.APIKey != "":
		auth = "apikey"
	case t.MTLS():
		auth = "mtls"
	}
	return []any{"temporalTLS", t.TLS, "temporalAuth", auth}
}
