package integration

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/internal/testkit/tlstest"
)

// mtlsFrontend puts a mutual-TLS proxy in front of the shared Temporal dev server (which
// speaks plaintext only): a frontend that requires a client certificate from the test CA,
// with the certificate files the test rotates.
func mtlsFrontend(t *testing.T) (*tlstest.Proxy, *tlstest.CA, tlstest.Files) {
	t.Helper()
	dev := stacktest.SharedTemporal(t)
	ca, files, err := tlstest.WriteFiles(t.TempDir(), "temporal.herald.test", "herald-first")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ca.Issue(tlstest.LeafOptions{CommonName: "frontend", Names: []string{files.ServerName}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := tlstest.StartProxy(tlstest.ProxyOptions{Backend: dev.Address, Cert: srv.TLS(), ClientCAs: ca})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p, ca, files
}

// A send goes through a Temporal frontend that requires mutual TLS, and after the client
// certificate files are rotated (as cert-manager does) the next connection presents the
// new certificate, without a restart, and sends keep being delivered.
func TestSendThroughMutualTLSWithCertificateRotation(t *testing.T) {
	proxy, ca, files := mtlsFrontend(t)
	e := stacktest.New(t, stacktest.Options{TemporalAddress: proxy.Address, Configure: func(c *config.Config) {
		c.TemporalClient = config.TemporalClientConfig{
			TLS: true, CAFile: files.CA, ServerName: files.ServerName, CertFile: files.ClientCert, KeyFile: files.ClientKey,
			ConnectTimeout: 5 * time.Second, RPCTimeout: 10 * time.Second,
		}
	}})
	if err := e.Stack.CheckTemporal(t.Context()); err != nil {
		t.Fatalf("start-up check through mutual TLS: %v", err)
	}
	send := func(user string) {
		t.Helper()
		res := e.Do("POST", "/v3/notifications", `{"notification": {"title": "Over mTLS"}, "sendTo": {"recipients": ["`+user+`"]}}`, e.AppHeaders())
		if res.Status != 202 {
			t.Fatalf("send: %d %s", res.Status, res.Body)
		}
		e.Eventually(60*time.Second, "the notification in "+user+"'s inbox", func() bool { return len(inbox(t, e, user).Data) == 1 })
	}
	send("before-rotation")
	before := proxy.ClientNames()
	if len(before) == 0 || slices.ContainsFunc(before, func(n string) bool { return n != "herald-first" }) {
		t.Fatalf("client certificates before the rotation: %v", before)
	}

	// cert-manager writes the renewed certificate and key over the old files.
	renewed, err := ca.Issue(tlstest.LeafOptions{CommonName: "herald-renewed", Client: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := renewed.Write(filepath.Dir(files.ClientCert), "client"); err != nil {
		t.Fatal(err)
	}
	// Connections made before keep their certificate (Temporal checks it at the handshake);
	// drop them, as a frontend restart or a load balancer would, so the clients reconnect.
	proxy.DropConnections()
	send("after-rotation")
	after := proxy.ClientNames()[len(before):]
	if len(after) == 0 || slices.Contains(after, "herald-first") {
		t.Errorf("client certificates presented after the rotation: %v, want only herald-renewed", after)
	}
	t.Logf("connections before the rotation presented %v, after it %v", before, after)
}
