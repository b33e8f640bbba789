package doctor

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/heraldhq/herald/internal/platform/temporalconn"
)

// ExpiryWarning is how close to its end a certificate of the Temporal connection turns its
// finding into a WARN: cert-manager renews at two thirds of a 90-day life, so a certificate
// this close to expiry was not renewed.
const ExpiryWarning = 14 * 24 * time.Hour

// temporalTLSFindings checks the files of the Temporal connection without connecting: the
// CA parses, the client certificate and key are readable and a pair, and none expires
// within ExpiryWarning.
func (d *Doctor) temporalTLSFindings() []Finding {
	tc := d.Cfg.TemporalClient
	addr := d.Cfg.TemporalAddress
	if !tc.TLS {
		if tc.APIKey != "" && !isLoopback(hostOf(addr)) {
			return []Finding{warn("temporal-tls", fmt.Sprintf("HERALD_TEMPORAL_API_KEY is sent in clear to %s (HERALD_TEMPORAL_TLS=false)", addr),
				"Remove HERALD_TEMPORAL_TLS=false (an API key turns TLS on), unless a sidecar on this host adds TLS.")}
		}
		return []Finding{ok("temporal-tls", "off: plaintext to "+addr+" (payloads are still encrypted by the codec); set HERALD_TEMPORAL_TLS or the HERALD_TEMPORAL_TLS_* files when Temporal is reached over a network you do not control")}
	}
	var out []Finding
	if tc.CAFile == "" {
		out = append(out, ok("temporal-tls", "TLS to "+addr+", the frontend's certificate verified against the system's roots"))
	} else {
		out = append(out, caFinding(tc.CAFile))
	}
	if tc.CertFile != "" {
		out = append(out, clientCertFinding(tc.CertFile, tc.KeyFile))
	}
	if tc.APIKey != "" {
		out = append(out, ok("temporal-tls", "API key set (sent as Authorization: Bearer over TLS)"))
	}
	return out
}

func caFinding(path string) Finding {
	const fix = "Set HERALD_TEMPORAL_TLS_CA_FILE to a readable PEM file of the CA that issued the Temporal frontend's certificate."
	b, err := os.ReadFile(path)
	if err != nil {
		return fail("temporal-tls", "HERALD_TEMPORAL_TLS_CA_FILE cannot be read: "+err.Error(), fix)
	}
	var certs []*x509.Certificate
	for rest := b; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return fail("temporal-tls", fmt.Sprintf("HERALD_TEMPORAL_TLS_CA_FILE=%s holds a certificate that does not parse: %v", path, err), fix)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return fail("temporal-tls", fmt.Sprintf("HERALD_TEMPORAL_TLS_CA_FILE=%s holds no PEM certificate", path), fix)
	}
	for _, c := range certs {
		if f, bad := expiry("the CA certificate "+c.Subject.String()+" of HERALD_TEMPORAL_TLS_CA_FILE", c,
			"Add the Temporal cluster's new CA certificate to HERALD_TEMPORAL_TLS_CA_FILE (keep the old one until the frontend uses the new), then restart herald api and herald worker."); bad {
			return f
		}
	}
	return ok("temporal-tls", fmt.Sprintf("CA file %s: %d certificate(s), %s valid until %s", path, len(certs), certs[0].Subject, certs[0].NotAfter.Format(time.DateOnly)))
}

func clientCertFinding(certFile, keyFile string) Finding {
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		return fail("temporal-tls", "HERALD_TEMPORAL_TLS_CERT_FILE cannot be read: "+err.Error(), "Mount the client certificate's Secret and point HERALD_TEMPORAL_TLS_CERT_FILE at its tls.crt.")
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		return fail("temporal-tls", "HERALD_TEMPORAL_TLS_KEY_FILE cannot be read: "+err.Error(), "Mount the client certificate's Secret and point HERALD_TEMPORAL_TLS_KEY_FILE at its tls.key.")
	}
	cert, err := temporalconn.LoadKeyPair(certFile, certPEM, keyFile, keyPEM)
	if err != nil {
		return fail("temporal-tls", err.Error(), "Point HERALD_TEMPORAL_TLS_CERT_FILE and HERALD_TEMPORAL_TLS_KEY_FILE at a certificate and the key it was issued for (tls.crt and tls.key of the same Secret).")
	}
	leaf := cert.Leaf
	if f, bad := expiry("the client certificate "+leaf.Subject.String()+" of HERALD_TEMPORAL_TLS_CERT_FILE", leaf,
		"Renew it (cert-manager: check the Certificate's status and events); Herald reads the new files without a restart."); bad {
		return f
	}
	return ok("temporal-tls", fmt.Sprintf("client certificate %s, issued by %s, valid until %s (re-read when the files change)", leaf.Subject, leaf.Issuer, leaf.NotAfter.Format(time.DateOnly)))
}

// expiry is a FAIL for a certificate outside its validity and a WARN for one ending within
// ExpiryWarning; bad is false when it is neither.
func expiry(what string, c *x509.Certificate, fix string) (f Finding, bad bool) {
	now := time.Now()
	switch {
	case now.After(c.NotAfter):
		return fail("temporal-tls", fmt.Sprintf("%s expired on %s", what, c.NotAfter.Format(time.RFC3339)), fix), true
	case now.Before(c.NotBefore):
		return fail("temporal-tls", fmt.Sprintf("%s is not valid before %s", what, c.NotBefore.Format(time.RFC3339)), "Check this machine's clock, or wait for the certificate's start."), true
	case c.NotAfter.Sub(now) < ExpiryWarning:
		days := int(c.NotAfter.Sub(now).Hours() / 24)
		return warn("temporal-tls", fmt.Sprintf("%s expires in %d day(s), on %s", what, days, c.NotAfter.Format(time.RFC3339)), fix), true
	}
	return Finding{}, false
}

// hostOf is the host of host:port (or the whole address).
func hostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}
