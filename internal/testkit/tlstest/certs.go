// Package tlstest makes the certificates of TLS and mutual-TLS tests with crypto/x509 (a CA,
// server certificates, client certificates, written as PEM files) and runs a
// TLS-terminating proxy in front of a plaintext server: with the Temporal dev server behind
// it, a real mutual-TLS frontend for tests that cannot afford to build a Temporal server.
package tlstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// CA is a certificate authority that issues certificates.
type CA struct {
	Cert *x509.Certificate
	Key  *ecdsa.PrivateKey
	// PEM is the CA certificate, PEM encoded.
	PEM []byte
}

// NewCA makes a self-signed CA named name, valid from an hour ago for a year.
func NewCA(name string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: name, Organization: []string{"Herald tests"}},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(365 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{Cert: cert, Key: key, PEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// Pool is a cert pool holding the CA.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// Leaf is an issued certificate and its key.
type Leaf struct {
	CertPEM, KeyPEM []byte
	Cert            *x509.Certificate
}

// TLS is the certificate for a tls.Config.
func (l *Leaf) TLS() tls.Certificate {
	c, err := tls.X509KeyPair(l.CertPEM, l.KeyPEM)
	if err != nil {
		panic(err) // made by Issue: always a pair
	}
	return c
}

// Write writes the certificate and the key as PEM files dir/name.crt and dir/name.key and
// returns their paths.
func (l *Leaf) Write(dir, name string) (certFile, keyFile string, err error) {
	certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certFile, l.CertPEM, 0o600); err != nil {
		return "", "", err
	}
	return certFile, keyFile, os.WriteFile(keyFile, l.KeyPEM, 0o600)
}

// LeafOptions describe a certificate to issue.
type LeafOptions struct {
	// CommonName is the subject's name.
	CommonName string
	// Names are the DNS names and IP addresses a server certificate is valid for.
	Names []string
	// Client makes a client certificate (else a server certificate).
	Client bool
	// NotAfter ends its validity (a year from now when zero).
	NotAfter time.Time
}

// Issue signs a new certificate.
func (ca *CA) Issue(o LeafOptions) (*Leaf, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	if o.NotAfter.IsZero() {
		o.NotAfter = time.Now().Add(365 * 24 * time.Hour)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: o.CommonName, Organization: []string{"Herald tests"}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     o.NotAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if o.Client {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	}
	for _, n := range o.Names {
		if ip := net.ParseIP(n); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return &Leaf{
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
		Cert:    cert,
	}, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		panic(err)
	}
	return n
}

// Files are the PEM files of a TLS test setup: the CA, the server's certificate and key,
// and a client certificate and key issued by the same CA.
type Files struct {
	CA, ServerCert, ServerKey, ClientCert, ClientKey string
	// ServerName is the DNS name the server certificate carries (it also carries 127.0.0.1
	// and localhost).
	ServerName string
}

// WriteFiles makes a CA, a server certificate for serverName, 127.0.0.1 and localhost, and
// a client certificate named clientName, and writes them into dir.
func WriteFiles(dir, serverName, clientName string) (*CA, Files, error) {
	ca, err := NewCA("Herald test CA")
	if err != nil {
		return nil, Files{}, err
	}
	f := Files{CA: filepath.Join(dir, "ca.crt"), ServerName: serverName}
	if err := os.WriteFile(f.CA, ca.PEM, 0o644); err != nil {
		return nil, Files{}, err
	}
	srv, err := ca.Issue(LeafOptions{CommonName: serverName, Names: []string{serverName, "localhost", "127.0.0.1"}})
	if err != nil {
		return nil, Files{}, err
	}
	if f.ServerCert, f.ServerKey, err = srv.Write(dir, "server"); err != nil {
		return nil, Files{}, err
	}
	cl, err := ca.Issue(LeafOptions{CommonName: clientName, Client: true})
	if err != nil {
		return nil, Files{}, err
	}
	if f.ClientCert, f.ClientKey, err = cl.Write(dir, "client"); err != nil {
		return nil, Files{}, fmt.Errorf("client certificate: %w", err)
	}
	return ca, f, nil
}
