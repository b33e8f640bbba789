package temporalconn

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// SetupError is a connection to Temporal that cannot work until a setting changes: a CA
// that does not sign the frontend's certificate, a client certificate the frontend
// requires or refuses, TLS spoken to a plaintext port, an API key Temporal refuses. herald
// api and herald worker stop at start-up with it; herald doctor reports it.
type SetupError struct {
	// Address is the frontend.
	Address string
	// Setting is the variable to change (HERALD_TEMPORAL_TLS_CA_FILE, …), or "" when the
	// fix is on the server's side.
	Setting string
	// Problem says what is wrong, Fix what to do.
	Problem, Fix string
	// Err is the underlying error.
	Err error
}

func (e *SetupError) Error() string {
	s := fmt.Sprintf("temporal at %s: %s", e.Address, e.Problem)
	if e.Setting != "" {
		s += "; fix " + e.Setting
	}
	s += ": " + e.Fix
	if e.Err != nil {
		s += " (" + e.Err.Error() + ")"
	}
	return s
}

func (e *SetupError) Unwrap() error { return e.Err }

// Check connects to the frontend once, the way the client does, and tells a setting that
// must change (*SetupError) from a frontend that does not answer yet (any other error: the
// clients retry). With cl (a client of this connection), it then asks for the namespace,
// which shows whether Temporal accepts the API key or the client certificate.
func (c *Conn) Check(ctx context.Context, cl client.Client) error {
	if err := c.probe(ctx); err != nil {
		return err
	}
	if cl == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	_, err := cl.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: c.Namespace})
	var denied *serviceerror.PermissionDenied
	switch {
	case status.Code(err) == codes.Unauthenticated:
		setting, fix := "HERALD_TEMPORAL_API_KEY", "Create a new API key for Herald's service account (tcld apikey create, or the Cloud UI) and set it; check that it has not expired."
		if c.cfg.APIKey == "" {
			setting, fix = "HERALD_TEMPORAL_TLS_CERT_FILE", "Use a client certificate the frontend's authorizer accepts, or set HERALD_TEMPORAL_API_KEY."
		}
		return &SetupError{Address: c.Address, Setting: setting, Problem: "Temporal refused Herald's credentials", Fix: fix, Err: err}
	case errors.As(err, &denied):
		return &SetupError{Address: c.Address, Setting: "HERALD_TEMPORAL_NAMESPACE",
			Problem: fmt.Sprintf("Herald's credentials may not use the namespace %q", c.Namespace),
			Fix:     "Correct the namespace (Temporal Cloud: <namespace>.<account id>), or give the API key's service account, or the client certificate's CA, access to it (Temporal Cloud: namespace permissions, or the namespace's CA certificates).",
			Err:     err}
	}
	// Anything else (unreachable, a missing namespace) is for the retries and herald doctor.
	return nil
}

func (c *Conn) timeout() time.Duration {
	if c.cfg.ConnectTimeout > 0 {
		return c.cfg.ConnectTimeout
	}
	return 10 * time.Second
}

// http2Preface is what an HTTP/2 client sends first: the connection preface and an empty
// SETTINGS frame. A gRPC server answers with its own SETTINGS frame.
var http2Preface = append([]byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), 0, 0, 0, 4, 0, 0, 0, 0, 0)

// probe opens one connection (TCP, TLS as configured), speaks the first words of HTTP/2
// and reads the answer: a gRPC frontend answers with a SETTINGS frame.
func (c *Conn) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	var d net.Dialer
	raw, err := d.DialContext(ctx, "tcp", c.Address)
	if err != nil {
		return fmt.Errorf("temporal at %s does not answer: %w", c.Address, err)
	}
	defer raw.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = raw.SetDeadline(deadline)
	}
	conn := raw
	if c.tls != nil {
		cfg := c.TLS()
		cfg.ServerName = c.serverName()
		cfg.NextProtos = []string{"h2"}
		tc := tls.Client(raw, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return c.explainTLS(err)
		}
		conn = tc
	}
	_, err = conn.Write(http2Preface)
	reply := make([]byte, 9)
	n := 0
	if err == nil {
		n, err = io.ReadFull(conn, reply)
	}
	reply = reply[:n]
	switch {
	case n >= 4 && reply[3] == 4: // a SETTINGS frame
		return nil
	case c.tls != nil && err != nil && strings.Contains(err.Error(), "remote error: tls:"):
		// TLS 1.3: the server checks the client certificate after the client's side of the
		// handshake completed, and says no with an alert on the first read.
		return c.explainTLS(err)
	case c.tls == nil && n >= 2 && (reply[0] == 0x15 || reply[0] == 0x16) && reply[1] == 3:
		return &SetupError{Address: c.Address, Setting: "HERALD_TEMPORAL_TLS", Problem: "the frontend speaks TLS and Herald connects in plaintext",
			Fix: "Set HERALD_TEMPORAL_TLS=true, with HERALD_TEMPORAL_TLS_CA_FILE when the frontend's certificate is signed by a CA of your own."}
	case bytes.HasPrefix(reply, []byte("HTTP/")):
		return &SetupError{Address: c.Address, Setting: "HERALD_TEMPORAL_ADDRESS", Problem: "an HTTP/1 server answers, not a Temporal frontend (gRPC)",
			Fix: "Point it at the frontend's gRPC port (7233 by default), not the Web UI's or the HTTP API's."}
	case err == nil:
		return &SetupError{Address: c.Address, Setting: "HERALD_TEMPORAL_ADDRESS", Problem: "the server does not answer as a Temporal frontend (gRPC over HTTP/2) does",
			Fix: "Point it at the frontend's gRPC port (7233 by default)."}
	}
	hint := ""
	if c.tls == nil {
		hint = " (a frontend that requires TLS closes plaintext connections so: then set HERALD_TEMPORAL_TLS=true)"
	}
	return fmt.Errorf("temporal at %s closed the connection without answering%s: %w", c.Address, hint, err)
}

// explainTLS turns a failed TLS handshake into the setting to fix, or returns it as it is
// when no setting explains it (the frontend went away).
func (c *Conn) explainTLS(err error) error {
	e := &SetupError{Address: c.Address, Err: err}
	var verify *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var header tls.RecordHeaderError
	msg := err.Error()
	switch {
	case errors.As(err, &unknownCA):
		leaf := unknownCA.Cert
		e.Setting = "HERALD_TEMPORAL_TLS_CA_FILE"
		if c.cfg.CAFile != "" {
			e.Problem = fmt.Sprintf("the frontend's certificate (%s, issued by %s) is not signed by a CA in HERALD_TEMPORAL_TLS_CA_FILE=%s", leaf.Subject, leaf.Issuer, c.cfg.CAFile)
			e.Fix = "Set it to the PEM file of the CA that issued the frontend's certificate."
		} else {
			e.Problem = fmt.Sprintf("the frontend's certificate (%s, issued by %s) is not signed by a CA this system trusts", leaf.Subject, leaf.Issuer)
			e.Fix = "Set it to the PEM file of the CA that issued the frontend's certificate (a self-hosted cluster's own CA)."
		}
	case errors.As(err, &hostname):
		e.Setting = "HERALD_TEMPORAL_TLS_SERVER_NAME"
		e.Problem = fmt.Sprintf("the frontend's certificate does not carry the name %q", c.serverName())
		e.Fix = "Set it to a name the certificate carries (" + strings.TrimPrefix(hostname.Error(), "x509: ") + "), or reach Temporal by that name in HERALD_TEMPORAL_ADDRESS."
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		e.Problem = "the frontend's certificate has expired or is not valid yet"
		e.Fix = "Renew the frontend's certificate (or correct this machine's clock)."
	case errors.As(err, &verify):
		e.Setting = "HERALD_TEMPORAL_TLS_CA_FILE"
		e.Problem = "the frontend's certificate does not verify"
		e.Fix = "Set it to the PEM file of the CA that issued the frontend's certificate."
	case errors.As(err, &header):
		e.Setting = "HERALD_TEMPORAL_TLS"
		e.Problem = "the frontend does not speak TLS"
		e.Fix = "Remove HERALD_TEMPORAL_TLS and the HERALD_TEMPORAL_TLS_* settings (and HERALD_TEMPORAL_API_KEY, or set HERALD_TEMPORAL_TLS=false with it), or point HERALD_TEMPORAL_ADDRESS at the TLS port."
	case strings.Contains(msg, "remote error: tls:"):
		alert := msg[strings.Index(msg, "remote error: tls:")+len("remote error: tls: "):]
		certAlert := strings.Contains(alert, "certificate") || strings.Contains(alert, "handshake failure") || strings.Contains(alert, "access denied")
		switch {
		case !certAlert:
			return fmt.Errorf("temporal at %s ended the TLS handshake: %w", c.Address, err)
		case c.certs == nil:
			e.Setting = "HERALD_TEMPORAL_TLS_CERT_FILE"
			e.Problem = "the frontend requires a client certificate (mutual TLS) and none is configured (it answered: " + alert + ")"
			e.Fix = "Set HERALD_TEMPORAL_TLS_CERT_FILE and HERALD_TEMPORAL_TLS_KEY_FILE to a client certificate issued by a CA the frontend trusts, and its key."
		default:
			e.Setting = "HERALD_TEMPORAL_TLS_CERT_FILE"
			leaf := c.ClientCertificate().Leaf
			e.Problem = fmt.Sprintf("the frontend refused the client certificate (%s, issued by %s, valid until %s): %s", leaf.Subject, leaf.Issuer, leaf.NotAfter.Format(time.RFC3339), alert)
			e.Fix = "Use a client certificate issued by a CA the frontend trusts (its clientCaFiles; Temporal Cloud: the namespace's CA certificates) and not expired."
		}
	default:
		return fmt.Errorf("temporal at %s: TLS handshake: %w", c.Address, err)
	}
	return e
}
