// Package temporalconn connects Herald's Temporal clients the way the configuration says
// (config.TemporalClientConfig): TLS with a server CA and name, mutual TLS with a client
// certificate that is re-read when its files change (cert-manager rotates them), the API
// key of Temporal Cloud, and the connection and RPC timeouts. Check tests the connection
// once at start-up, so that a wrong CA or a missing client certificate stops herald api and
// herald worker with a message naming the setting to fix, instead of failing the first send.
package temporalconn

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"

	"go.temporal.io/sdk/client"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"

	"github.com/heraldhq/herald/internal/platform/config"
)

// Conn is the connection settings of one process's Temporal clients, resolved: the files
// read, the TLS configuration built.
type Conn struct {
	// Address is the frontend's host:port (HERALD_TEMPORAL_ADDRESS).
	Address string
	// Namespace is HERALD_TEMPORAL_NAMESPACE.
	Namespace string
	cfg       config.TemporalClientConfig
	tls       *tls.Config // nil: plaintext
	certs     *certReloader
}

// New reads the CA and the client certificate and builds the connection settings. A file
// that cannot be read or parsed is an error naming its variable.
func New(address, namespace string, cfg config.TemporalClientConfig, log *slog.Logger) (*Conn, error) {
	c := &Conn{Address: address, Namespace: namespace, cfg: cfg}
	if !cfg.TLS {
		return c, nil
	}
	t := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: cfg.ServerName}
	if cfg.CAFile != "" {
		pool, err := LoadCA(cfg.CAFile)
		if err != nil {
			return nil, err
		}
		t.RootCAs = pool
	}
	if cfg.CertFile != "" {
		r, err := newCertReloader(cfg.CertFile, cfg.KeyFile, log)
		if err != nil {
			return nil, err
		}
		c.certs = r
		t.GetClientCertificate = r.GetClientCertificate
	}
	c.tls = t
	return c, nil
}

// LoadCA reads a PEM file of CA certificates into a pool; an unreadable file, or one
// without a certificate, is an error naming HERALD_TEMPORAL_TLS_CA_FILE.
func LoadCA(path string) (*x509.CertPool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("HERALD_TEMPORAL_TLS_CA_FILE: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("HERALD_TEMPORAL_TLS_CA_FILE=%s holds no PEM certificate (-----BEGIN CERTIFICATE-----)", path)
	}
	return pool, nil
}

// Config is the configuration the connection was built from.
func (c *Conn) Config() config.TemporalClientConfig { return c.cfg }

// TLS is the TLS configuration of the connection (nil for plaintext). Its client
// certificate is the current one of the certificate files.
func (c *Conn) TLS() *tls.Config {
	if c.tls == nil {
		return nil
	}
	return c.tls.Clone()
}

// ClientCertificate is the client certificate new connections present (nil without
// mutual TLS), after re-reading the files if they changed.
func (c *Conn) ClientCertificate() *tls.Certificate {
	if c.certs == nil {
		return nil
	}
	cert, _ := c.certs.current()
	return cert
}

// Apply sets the connection options of o: the address and namespace, TLS, the API key,
// the connection timeout and the per-attempt RPC timeout.
func (c *Conn) Apply(o client.Options) client.Options {
	o.HostPort, o.Namespace = c.Address, c.Namespace
	if c.tls != nil {
		o.ConnectionOptions.TLS = c.tls.Clone()
	}
	if c.cfg.APIKey != "" {
		o.Credentials = client.NewAPIKeyStaticCredentials(c.cfg.APIKey)
	}
	// The SDK's own backoff between attempts, with this connection timeout per attempt
	// (this option replaces the SDK's, which allows 20s).
	cp := grpc.ConnectParams{Backoff: backoff.DefaultConfig, MinConnectTimeout: c.cfg.ConnectTimeout}
	cp.Backoff.BaseDelay = sdkRetryBaseDelay
	cp.Backoff.MaxDelay = sdkRetryMaxDelay
	o.ConnectionOptions.DialOptions = append(o.ConnectionOptions.DialOptions,
		grpc.WithConnectParams(cp),
		grpc.WithChainUnaryInterceptor(rpcTimeout(c.cfg.RPCTimeout)))
	return o
}

// Cloud reports whether the frontend is Temporal Cloud's: the address, or the TLS server
// name when Cloud is reached through a private endpoint, is <namespace>.<account>.tmprl.cloud
// or a regional *.api.temporal.io. Search attributes are then added with tcld.
func (c *Conn) Cloud() bool { return IsCloud(c.Address) || IsCloud(c.cfg.ServerName) }

// IsCloud reports whether a frontend address is Temporal Cloud's.
func IsCloud(address string) bool {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return strings.HasSuffix(host, ".tmprl.cloud") || strings.HasSuffix(host, ".api.temporal.io")
}

// serverName is the name the frontend's certificate must carry.
func (c *Conn) serverName() string {
	if c.cfg.ServerName != "" {
		return c.cfg.ServerName
	}
	host, _, err := net.SplitHostPort(c.Address)
	if err != nil {
		return c.Address
	}
	return host
}
