package temporalconn

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certReloader hands the client certificate of mutual TLS to every TLS handshake, reading
// the certificate and key files again when their content changed since the last
// handshake: cert-manager (or any rotation) rewrites them in place, and the next
// connection presents the new certificate without a restart. Connections already open
// keep the certificate they were made with; Temporal checks it at the handshake only.
//
// Handshakes are rare (one per connection, and gRPC keeps its connection open), so the
// files are read at each one: that notices every change, however the files are replaced
// (a Kubernetes Secret volume swaps a symlink, which keeps no useful modification time).
type certReloader struct {
	certFile, keyFile string
	log               *slog.Logger

	mu              sync.Mutex
	cert            *tls.Certificate
	certPEM, keyPEM []byte
	// logged is the last problem logged, so that a handshake storm logs it once.
	logged string
}

func newCertReloader(certFile, keyFile string, log *slog.Logger) (*certReloader, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &certReloader{certFile: certFile, keyFile: keyFile, log: log}
	if _, err := r.current(); err != nil {
		return nil, err
	}
	return r, nil
}

// GetClientCertificate is tls.Config.GetClientCertificate.
func (r *certReloader) GetClientCertificate(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
	return r.current()
}

// current returns the certificate of the files as they are now. When they changed but do
// not load (a rotation caught half-way, a bad key), the previous certificate is kept and
// the problem logged; only a certificate that never loaded is an error.
func (r *certReloader) current() (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	certPEM, err1 := os.ReadFile(r.certFile)
	keyPEM, err2 := os.ReadFile(r.keyFile)
	var err error
	switch {
	case err1 != nil:
		err = fmt.Errorf("HERALD_TEMPORAL_TLS_CERT_FILE: %w", err1)
	case err2 != nil:
		err = fmt.Errorf("HERALD_TEMPORAL_TLS_KEY_FILE: %w", err2)
	case r.cert != nil && bytes.Equal(certPEM, r.certPEM) && bytes.Equal(keyPEM, r.keyPEM):
		return r.cert, nil
	}
	if err == nil {
		var cert tls.Certificate
		if cert, err = LoadKeyPair(r.certFile, certPEM, r.keyFile, keyPEM); err == nil {
			previous := r.cert
			r.cert, r.certPEM, r.keyPEM, r.logged = &cert, certPEM, keyPEM, ""
			if previous != nil {
				r.log.Info("temporal client certificate reloaded: new connections present it",
					"subject", cert.Leaf.Subject.String(), "serial", cert.Leaf.SerialNumber.String(), "notAfter", cert.Leaf.NotAfter.Format(time.RFC3339))
			}
			return r.cert, nil
		}
	}
	if r.cert == nil {
		return nil, err
	}
	if msg := err.Error(); msg != r.logged {
		r.logged = msg
		r.log.Warn("temporal client certificate files changed but do not load; new connections keep the previous certificate",
			"error", msg, "previousNotAfter", r.cert.Leaf.NotAfter.Format(time.RFC3339))
	}
	return r.cert, nil
}

// LoadKeyPair parses a client certificate and its key (PEM), with errors naming
// HERALD_TEMPORAL_TLS_CERT_FILE and HERALD_TEMPORAL_TLS_KEY_FILE. The leaf is parsed.
func LoadKeyPair(certFile string, certPEM []byte, keyFile string, keyPEM []byte) (tls.Certificate, error) {
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("HERALD_TEMPORAL_TLS_CERT_FILE=%s and HERALD_TEMPORAL_TLS_KEY_FILE=%s are not a certificate and its key: %w", certFile, keyFile, err)
	}
	if cert.Leaf == nil {
		if cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
			return tls.Certificate{}, fmt.Errorf("HERALD_TEMPORAL_TLS_CERT_FILE=%s: %w", certFile, err)
		}
	}
	return cert, nil
}
