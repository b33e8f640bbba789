package temporalconn

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/cloudtest"
	"github.com/heraldhq/herald/internal/testkit/tlstest"
)

// frontend is a tiny gRPC server with Temporal's workflow service: enough for the SDK to
// connect (GetSystemInfo) and describe a namespace, recording the metadata of every call.
type frontend struct {
	workflowservice.UnimplementedWorkflowServiceServer
	addr  string
	mu    sync.Mutex
	calls []metadata.MD
}

func startFrontend(t *testing.T) *frontend {
	t.Helper()
	f := &frontend{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		f.mu.Lock()
		f.calls = append(f.calls, md)
		f.mu.Unlock()
		return h(ctx, req)
	}))
	workflowservice.RegisterWorkflowServiceServer(s, f)
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(s.Stop)
	f.addr = ln.Addr().String()
	return f
}

func (f *frontend) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{}, nil
}

func (f *frontend) DescribeNamespace(context.Context, *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	return &workflowservice.DescribeNamespaceResponse{}, nil
}

func (f *frontend) metadata() []metadata.MD {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]metadata.MD(nil), f.calls...)
}

// setup is a CA, the certificate files, and a TLS proxy in front of a tiny frontend.
type setup struct {
	dir   string
	ca    *tlstest.CA
	files tlstest.Files
	front *frontend
}

func newSetup(t *testing.T) *setup {
	t.Helper()
	dir := t.TempDir()
	ca, files, err := tlstest.WriteFiles(dir, "temporal.herald.test", "herald-client")
	if err != nil {
		t.Fatal(err)
	}
	return &setup{dir: dir, ca: ca, files: files, front: startFrontend(t)}
}

// proxy starts a TLS proxy (mutual TLS with mtls) in front of the frontend.
func (s *setup) proxy(t *testing.T, mtls bool) *tlstest.Proxy {
	t.Helper()
	srv, err := s.ca.Issue(tlstest.LeafOptions{CommonName: "frontend", Names: []string{s.files.ServerName, "127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	o := tlstest.ProxyOptions{Backend: s.front.addr, Cert: srv.TLS()}
	if mtls {
		o.ClientCAs = s.ca
	}
	p, err := tlstest.StartProxy(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func load(t *testing.T, env map[string]string) config.TemporalClientConfig {
	t.Helper()
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg.TemporalClient
}

func TestCheckNamesTheSettingToFix(t *testing.T) {
	s := newSetup(t)
	mtls := s.proxy(t, true)
	plainTLS := s.proxy(t, false)
	_, otherFiles, err := tlstest.WriteFiles(t.TempDir(), "temporal.herald.test", "stranger")
	if err != nil {
		t.Fatal(err)
	}
	good := map[string]string{
		"HERALD_TEMPORAL_TLS_CA_FILE":     s.files.CA,
		"HERALD_TEMPORAL_TLS_SERVER_NAME": s.files.ServerName,
		"HERALD_TEMPORAL_TLS_CERT_FILE":   s.files.ClientCert,
		"HERALD_TEMPORAL_TLS_KEY_FILE":    s.files.ClientKey,
	}
	with := func(kv ...string) map[string]string {
		env := map[string]string{}
		for k, v := range good {
			env[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				delete(env, kv[i])
			} else {
				env[kv[i]] = kv[i+1]
			}
		}
		return env
	}
	cases := []struct {
		name    string
		addr    string
		env     map[string]string
		setting string // "" with says == "": no error
		says    string
	}{
		{"mutual TLS", mtls.Address, good, "", ""},
		{"TLS with the CA, no client certificate needed", plainTLS.Address, with("HERALD_TEMPORAL_TLS_CERT_FILE", "", "HERALD_TEMPORAL_TLS_KEY_FILE", ""), "", ""},
		{"wrong CA", mtls.Address, with("HERALD_TEMPORAL_TLS_CA_FILE", otherFiles.CA), "HERALD_TEMPORAL_TLS_CA_FILE", "is not signed by a CA in HERALD_TEMPORAL_TLS_CA_FILE"},
		{"system roots for a private CA", mtls.Address, with("HERALD_TEMPORAL_TLS_CA_FILE", ""), "HERALD_TEMPORAL_TLS_CA_FILE", "not signed by a CA this system trusts"},
		{"missing client certificate", mtls.Address, with("HERALD_TEMPORAL_TLS_CERT_FILE", "", "HERALD_TEMPORAL_TLS_KEY_FILE", ""), "HERALD_TEMPORAL_TLS_CERT_FILE", "requires a client certificate"},
		{"client certificate of another CA", mtls.Address, with("HERALD_TEMPORAL_TLS_CERT_FILE", otherFiles.ClientCert, "HERALD_TEMPORAL_TLS_KEY_FILE", otherFiles.ClientKey), "HERALD_TEMPORAL_TLS_CERT_FILE", "refused the client certificate (CN=stranger"},
		{"wrong server name", mtls.Address, with("HERALD_TEMPORAL_TLS_SERVER_NAME", "temporal.example.com"), "HERALD_TEMPORAL_TLS_SERVER_NAME", `does not carry the name "temporal.example.com"`},
		{"TLS to a plaintext frontend", s.front.addr, good, "HERALD_TEMPORAL_TLS", "does not speak TLS"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.addr, "default", load(t, tc.env), nil)
			if err != nil {
				t.Fatal(err)
			}
			err = c.Check(t.Context(), nil)
			if tc.setting == "" {
				if err != nil {
					t.Fatalf("check: %v", err)
				}
				return
			}
			var se *SetupError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a setup error naming %s", err, tc.setting)
			}
			if se.Setting != tc.setting || !strings.Contains(se.Error(), tc.says) || se.Fix == "" {
				t.Errorf("got %q (setting %s), want %s and %q", se.Error(), se.Setting, tc.setting, tc.says)
			}
		})
	}
	t.Run("plaintext to a TLS frontend", func(t *testing.T) {
		c, err := New(mtls.Address, "default", load(t, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Check(t.Context(), nil)
		if err == nil || !strings.Contains(err.Error(), "HERALD_TEMPORAL_TLS=true") {
			t.Errorf("got %v, want a hint at HERALD_TEMPORAL_TLS=true", err)
		}
	})
	t.Run("nothing listens", func(t *testing.T) {
		c, err := New("127.0.0.1:1", "default", load(t, good), nil)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Check(t.Context(), nil)
		var se *SetupError
		if err == nil || errors.As(err, &se) {
			t.Errorf("got %v, want an unreachable error (not a setting to fix: the clients retry)", err)
		}
	})
}

func TestNewNamesUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	_, files, err := tlstest.WriteFiles(dir, "temporal.herald.test", "herald")
	if err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(dir, "junk.pem")
	if err := os.WriteFile(junk, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		env  map[string]string
		says string
	}{
		{map[string]string{"HERALD_TEMPORAL_TLS_CA_FILE": filepath.Join(dir, "missing.crt")}, "HERALD_TEMPORAL_TLS_CA_FILE: open"},
		{map[string]string{"HERALD_TEMPORAL_TLS_CA_FILE": junk}, "holds no PEM certificate"},
		{map[string]string{"HERALD_TEMPORAL_TLS_CERT_FILE": files.ClientCert, "HERALD_TEMPORAL_TLS_KEY_FILE": files.ServerKey}, "are not a certificate and its key"},
		{map[string]string{"HERALD_TEMPORAL_TLS_CERT_FILE": files.ClientCert, "HERALD_TEMPORAL_TLS_KEY_FILE": filepath.Join(dir, "nope.key")}, "HERALD_TEMPORAL_TLS_KEY_FILE: open"},
	}
	for _, tc := range cases {
		_, err := New("127.0.0.1:7233", "default", load(t, tc.env), nil)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: got %v, want %q", tc.env, err, tc.says)
		}
	}
}

// The API key of Temporal Cloud travels as "authorization: Bearer <key>" on every call,
// over TLS (turned on by the key), with the namespace header Cloud routes by.
func TestAPIKeyHeader(t *testing.T) {
	cloud := cloudtest.Start(t, cloudtest.Options{APIKey: "cloud-key-123"})
	cfg := load(t, map[string]string{"HERALD_TEMPORAL_API_KEY": "cloud-key-123", "HERALD_TEMPORAL_TLS_CA_FILE": cloud.CAFile, "HERALD_TEMPORAL_TLS_SERVER_NAME": cloud.ServerName()})
	if !cfg.TLS {
		t.Fatal("an API key did not turn TLS on")
	}
	c, err := New(cloud.Address, cloud.Namespace(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Cloud() {
		t.Error("a *.tmprl.cloud server name is not Temporal Cloud")
	}
	cl, err := client.Dial(c.Apply(client.Options{Logger: quiet{}}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := c.Check(t.Context(), cl); err != nil {
		t.Fatal(err)
	}
	calls := cloud.Calls()
	if len(calls) < 2 {
		t.Fatalf("%d calls reached the frontend", len(calls))
	}
	for _, md := range calls {
		if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer cloud-key-123" {
			t.Errorf("authorization %q", got)
		}
	}
	if got := calls[len(calls)-1].Get("temporal-namespace"); len(got) != 1 || got[0] != "herald.a1b2c" {
		t.Errorf("temporal-namespace %q", got)
	}
}

func TestRefusedAPIKeyNamesIt(t *testing.T) {
	cloud := cloudtest.Start(t, cloudtest.Options{APIKey: "the-current-key"})
	cfg := load(t, map[string]string{"HERALD_TEMPORAL_API_KEY": "an-expired-key", "HERALD_TEMPORAL_TLS_CA_FILE": cloud.CAFile, "HERALD_TEMPORAL_TLS_SERVER_NAME": cloud.ServerName()})
	c, err := New(cloud.Address, cloud.Namespace(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := client.NewLazyClient(c.Apply(client.Options{Logger: quiet{}}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	err = c.Check(t.Context(), cl)
	var se *SetupError
	if !errors.As(err, &se) || se.Setting != "HERALD_TEMPORAL_API_KEY" {
		t.Fatalf("got %v, want a setup error naming HERALD_TEMPORAL_API_KEY", err)
	}
}

// quiet is a logger that drops the SDK's lines.
type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}

// Rotated certificate files are read for the next handshake; files that do not load keep
// the previous certificate.
func TestClientCertificateReload(t *testing.T) {
	dir := t.TempDir()
	ca, files, err := tlstest.WriteFiles(dir, "temporal.herald.test", "first")
	if err != nil {
		t.Fatal(err)
	}
	c, err := New("127.0.0.1:7233", "default", load(t, map[string]string{"HERALD_TEMPORAL_TLS_CERT_FILE": files.ClientCert, "HERALD_TEMPORAL_TLS_KEY_FILE": files.ClientKey}), nil)
	if err != nil {
		t.Fatal(err)
	}
	get := func() string {
		cert, err := c.TLS().GetClientCertificate(nil)
		if err != nil {
			t.Fatal(err)
		}
		return cert.Leaf.Subject.CommonName
	}
	if got := get(); got != "first" {
		t.Fatalf("presents %q", got)
	}
	second, err := ca.Issue(tlstest.LeafOptions{CommonName: "second", Client: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := second.Write(dir, "client"); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "second" {
		t.Errorf("after rotation presents %q, want second", got)
	}
	// Half-way through a rotation: the new certificate is written, its key not yet.
	third, err := ca.Issue(tlstest.LeafOptions{CommonName: "third", Client: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files.ClientCert, third.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "second" {
		t.Errorf("with a mismatched pair presents %q, want the previous (second)", got)
	}
	if err := os.WriteFile(files.ClientKey, third.KeyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "third" {
		t.Errorf("after the key followed presents %q, want third", got)
	}
}

func TestRPCTimeout(t *testing.T) {
	intercept := rpcTimeout(2 * time.Second)
	deadline := func(method string, req any, parent time.Duration) time.Duration {
		ctx := context.Background()
		if parent > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, parent)
			defer cancel()
		}
		var left time.Duration = -1
		_ = intercept(ctx, method, req, nil, nil, func(ctx context.Context, _ string, _, _ any, _ *grpc.ClientConn, _ ...grpc.CallOption) error {
			if d, ok := ctx.Deadline(); ok {
				left = time.Until(d)
			}
			return nil
		})
		return left
	}
	const svc = "/temporal.api.workflowservice.v1.WorkflowService/"
	if got := deadline(svc+"StartWorkflowExecution", nil, 10*time.Second); got > 2*time.Second || got <= 0 {
		t.Errorf("a start keeps %s", got)
	}
	if got := deadline(svc+"StartWorkflowExecution", nil, 0); got > 2*time.Second || got <= 0 {
		t.Errorf("a call without deadline got %s", got)
	}
	if got := deadline(svc+"SignalWorkflowExecution", nil, time.Second); got > time.Second {
		t.Errorf("a nearer deadline became %s", got)
	}
	if got := deadline(svc+"PollActivityTaskQueue", nil, 70*time.Second); got < time.Minute {
		t.Errorf("a long poll was cut to %s", got)
	}
	if got := deadline(svc+"GetWorkflowExecutionHistory", &workflowservice.GetWorkflowExecutionHistoryRequest{WaitNewEvent: true}, 70*time.Second); got < time.Minute {
		t.Errorf("a history wait was cut to %s", got)
	}
	if got := deadline(svc+"GetWorkflowExecutionHistory", &workflowservice.GetWorkflowExecutionHistoryRequest{}, 70*time.Second); got > 2*time.Second {
		t.Errorf("a history read keeps %s", got)
	}
}

func TestIsCloud(t *testing.T) {
	for addr, want := range map[string]bool{
		"herald.a1b2c.tmprl.cloud:7233":      true,
		"us-east-1.aws.api.temporal.io:7233": true,
		"temporal-frontend:7233":             false,
		"127.0.0.1:7233":                     false,
	} {
		if IsCloud(addr) != want {
			t.Errorf("%s: %v", addr, !want)
		}
	}
}
