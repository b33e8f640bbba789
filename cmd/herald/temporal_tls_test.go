package main

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/ops/doctor"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/internal/testkit/tlstest"
)

// tlsSetup is a mutual-TLS frontend (a TLS proxy requiring a client certificate of the
// test CA, in front of the shared dev server) and certificate files for it and against it.
type tlsSetup struct {
	proxy *tlstest.Proxy
	ca    *tlstest.CA
	files tlstest.Files
	// other is a second CA's setup: its CA file and client certificate are the wrong ones.
	other tlstest.Files
	dir   string
}

func newTLSSetup(t *testing.T) *tlsSetup {
	t.Helper()
	dev := stacktest.SharedTemporal(t)
	s := &tlsSetup{dir: t.TempDir()}
	var err error
	if s.ca, s.files, err = tlstest.WriteFiles(s.dir, "temporal.herald.test", "herald"); err != nil {
		t.Fatal(err)
	}
	if _, s.other, err = tlstest.WriteFiles(t.TempDir(), "temporal.herald.test", "stranger"); err != nil {
		t.Fatal(err)
	}
	srv, err := s.ca.Issue(tlstest.LeafOptions{CommonName: "frontend", Names: []string{s.files.ServerName}})
	if err != nil {
		t.Fatal(err)
	}
	if s.proxy, err = tlstest.StartProxy(tlstest.ProxyOptions{Backend: dev.Address, Cert: srv.TLS(), ClientCAs: s.ca}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.proxy.Close)
	return s
}

// env is a good configuration reaching Temporal through the mutual-TLS frontend.
func (s *tlsSetup) env(t *testing.T) map[string]string {
	t.Helper()
	env := goodDoctorEnv(t)
	env["HERALD_TEMPORAL_ADDRESS"] = s.proxy.Address
	env["HERALD_TEMPORAL_TLS_CA_FILE"] = s.files.CA
	env["HERALD_TEMPORAL_TLS_SERVER_NAME"] = s.files.ServerName
	env["HERALD_TEMPORAL_TLS_CERT_FILE"] = s.files.ClientCert
	env["HERALD_TEMPORAL_TLS_KEY_FILE"] = s.files.ClientKey
	return env
}

// clientCert writes a client certificate of the test CA valid until notAfter.
func (s *tlsSetup) clientCert(t *testing.T, name string, notAfter time.Time) (string, string) {
	t.Helper()
	l, err := s.ca.Issue(tlstest.LeafOptions{CommonName: name, Client: true, NotAfter: notAfter})
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile, err := l.Write(s.dir, name)
	if err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// edit copies env with the given variables set ("" removes one).
func edit(env map[string]string, kv ...string) map[string]string {
	out := maps.Clone(env)
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(out, kv[i])
		} else {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

// herald api and herald worker stop at start-up when the Temporal connection cannot work,
// with a message naming the setting to fix, rather than at the first send.
func TestStartupStopsOnTemporalTLSProblems(t *testing.T) {
	s := newTLSSetup(t)
	good := s.env(t)
	good["HERALD_HTTP_ADDR"] = "127.0.0.1:0"
	cases := []struct {
		name, subcommand string
		env              map[string]string
		says             []string
	}{
		{"api with the wrong CA", "api", edit(good, "HERALD_TEMPORAL_TLS_CA_FILE", s.other.CA),
			[]string{"fix HERALD_TEMPORAL_TLS_CA_FILE", "is not signed by a CA in HERALD_TEMPORAL_TLS_CA_FILE=" + s.other.CA}},
		{"worker without a client certificate", "worker", edit(good, "HERALD_TEMPORAL_TLS_CERT_FILE", "", "HERALD_TEMPORAL_TLS_KEY_FILE", ""),
			[]string{"fix HERALD_TEMPORAL_TLS_CERT_FILE", "requires a client certificate"}},
		{"worker with a client certificate of another CA", "worker", edit(good, "HERALD_TEMPORAL_TLS_CERT_FILE", s.other.ClientCert, "HERALD_TEMPORAL_TLS_KEY_FILE", s.other.ClientKey),
			[]string{"fix HERALD_TEMPORAL_TLS_CERT_FILE", "refused the client certificate (CN=stranger"}},
		{"api with a certificate but no key", "api", edit(good, "HERALD_TEMPORAL_TLS_KEY_FILE", ""),
			[]string{"HERALD_TEMPORAL_TLS_CERT_FILE is set but HERALD_TEMPORAL_TLS_KEY_FILE is not"}},
		{"worker with an unreadable CA file", "worker", edit(good, "HERALD_TEMPORAL_TLS_CA_FILE", filepath.Join(s.dir, "missing.crt")),
			[]string{"HERALD_TEMPORAL_TLS_CA_FILE: open"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			var out, logs bytes.Buffer
			err := run(ctx, []string{tc.subcommand}, func(k string) string { return tc.env[k] }, &out, &logs)
			if ctx.Err() != nil {
				t.Fatalf("herald %s kept running; log:\n%s", tc.subcommand, logs.String())
			}
			if err == nil {
				t.Fatalf("herald %s returned no error", tc.subcommand)
			}
			for _, want := range tc.says {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("herald %s: %v\nwant it to say %q", tc.subcommand, err, want)
				}
			}
		})
	}
}

func TestDoctorTemporalTLS(t *testing.T) {
	s := newTLSSetup(t)
	good := s.env(t)
	r, err := runDoctorCmd(t, good)
	if err != nil || !r.OK {
		t.Fatalf("good mutual-TLS configuration: err %v, %+v", err, r.Findings)
	}
	tlsOK := 0
	for _, f := range r.Findings {
		if f.Level != doctor.OK {
			t.Errorf("finding %+v on a good mutual-TLS configuration", f)
		}
		if f.Check == "temporal-tls" {
			tlsOK++
		}
	}
	if tlsOK != 2 {
		t.Errorf("%d temporal-tls findings, want the CA's and the client certificate's: %+v", tlsOK, r.Findings)
	}

	soonCert, soonKey := s.clientCert(t, "herald-soon", time.Now().Add(5*24*time.Hour))
	oldCert, oldKey := s.clientCert(t, "herald-expired", time.Now().Add(-30*time.Minute))
	junk := filepath.Join(s.dir, "junk.pem")
	if err := os.WriteFile(junk, []byte("-----BEGIN NOTHING-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		env   map[string]string
		check string
		want  doctor.Level
		says  string
		fix   string
	}{
		{"wrong CA", edit(good, "HERALD_TEMPORAL_TLS_CA_FILE", s.other.CA), "temporal", doctor.Fail, "not signed by a CA in HERALD_TEMPORAL_TLS_CA_FILE", "HERALD_TEMPORAL_TLS_CA_FILE"},
		{"no client certificate", edit(good, "HERALD_TEMPORAL_TLS_CERT_FILE", "", "HERALD_TEMPORAL_TLS_KEY_FILE", ""), "temporal", doctor.Fail, "requires a client certificate", "HERALD_TEMPORAL_TLS_CERT_FILE"},
		{"wrong server name", edit(good, "HERALD_TEMPORAL_TLS_SERVER_NAME", "temporal.example.com"), "temporal", doctor.Fail, `does not carry the name "temporal.example.com"`, "HERALD_TEMPORAL_TLS_SERVER_NAME"},
		{"client certificate expiring in 5 days", edit(good, "HERALD_TEMPORAL_TLS_CERT_FILE", soonCert, "HERALD_TEMPORAL_TLS_KEY_FILE", soonKey), "temporal-tls", doctor.Warn, "CN=herald-soon,O=Herald tests of HERALD_TEMPORAL_TLS_CERT_FILE expires in 4 day(s)", "Renew it"},
		{"expired client certificate", edit(good, "HERALD_TEMPORAL_TLS_CERT_FILE", oldCert, "HERALD_TEMPORAL_TLS_KEY_FILE", oldKey), "temporal-tls", doctor.Fail, "expired on", "Renew it"},
		{"certificate and key of different pairs", edit(good, "HERALD_TEMPORAL_TLS_KEY_FILE", soonKey), "temporal-tls", doctor.Fail, "are not a certificate and its key", "the key it was issued for"},
		{"unreadable client key", edit(good, "HERALD_TEMPORAL_TLS_KEY_FILE", filepath.Join(s.dir, "gone.key")), "temporal-tls", doctor.Fail, "HERALD_TEMPORAL_TLS_KEY_FILE cannot be read", "tls.key"},
		{"CA file without a certificate", edit(good, "HERALD_TEMPORAL_TLS_CA_FILE", junk), "temporal-tls", doctor.Fail, "holds no PEM certificate", "HERALD_TEMPORAL_TLS_CA_FILE"},
		{"API key over plaintext", edit(goodDoctorEnv(t), "HERALD_TEMPORAL_API_KEY", "k", "HERALD_TEMPORAL_TLS", "false", "HERALD_TEMPORAL_ADDRESS", "temporal.internal:7233"), "temporal-tls", doctor.Warn, "sent in clear", "HERALD_TEMPORAL_TLS=false"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := runDoctorCmd(t, tc.env)
			if got := levelOf(r, tc.check); got != tc.want {
				t.Fatalf("%s: %q, want %s (%+v)", tc.check, got, tc.want, r.Findings)
			}
			for _, f := range r.Findings {
				if f.Check == tc.check && f.Level == tc.want {
					if !strings.Contains(f.Message, tc.says) || !strings.Contains(f.Fix, tc.fix) {
						t.Errorf("%s says %q, fix %q; want %q and a fix naming %q", tc.check, f.Message, f.Fix, tc.says, tc.fix)
					}
				}
			}
		})
	}
}
