// Package cloudtest stands in for Temporal Cloud's frontend, which tests cannot reach: a
// gRPC server over TLS (its own CA, a certificate for a *.tmprl.cloud name) that takes an
// API key as "authorization: Bearer" (any other answers Unauthenticated, as Cloud does),
// describes one namespace, lists its search attributes and refuses to add any through the
// operator API (PermissionDenied: on Cloud only the control plane, tcld, adds them). It
// records the metadata of every call. Everything else answers Unimplemented; workers cannot
// run against it.
package cloudtest

import (
	"context"
	"crypto/tls"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	namespacepb "go.temporal.io/api/namespace/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/heraldhq/herald/internal/testkit/tlstest"
)

// Options describe the namespace and the key.
type Options struct {
	// Namespace is the one namespace (<namespace>.<account>), "herald.a1b2c" when empty.
	Namespace string
	// APIKey is the key accepted; empty accepts any call.
	APIKey string
	// ServerName is the name of the server certificate, "herald.a1b2c.tmprl.cloud" when
	// empty: clients dial 127.0.0.1 and set it as the TLS server name (as through a
	// private link).
	ServerName string
}

// Frontend is a running stand-in.
type Frontend struct {
	workflowservice.UnimplementedWorkflowServiceServer
	operatorservice.UnimplementedOperatorServiceServer
	// Address is where it listens (127.0.0.1:port), CAFile the PEM file of its CA.
	Address, CAFile string
	opts            Options

	mu    sync.Mutex
	calls []metadata.MD
	attrs map[string]enumspb.IndexedValueType
}

// Start runs a frontend until the test ends.
func Start(t testing.TB, o Options) *Frontend {
	t.Helper()
	if o.Namespace == "" {
		o.Namespace = "herald.a1b2c"
	}
	if o.ServerName == "" {
		o.ServerName = "herald.a1b2c.tmprl.cloud"
	}
	ca, err := tlstest.NewCA("Cloud test CA")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ca.Issue(tlstest.LeafOptions{CommonName: o.ServerName, Names: []string{o.ServerName}})
	if err != nil {
		t.Fatal(err)
	}
	f := &Frontend{opts: o, CAFile: filepath.Join(t.TempDir(), "cloud-ca.crt"), attrs: map[string]enumspb.IndexedValueType{}}
	if err := os.WriteFile(f.CAFile, ca.PEM, 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	creds := credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{srv.TLS()}, MinVersion: tls.VersionTLS12})
	s := grpc.NewServer(grpc.Creds(creds), grpc.UnaryInterceptor(f.intercept))
	workflowservice.RegisterWorkflowServiceServer(s, f)
	operatorservice.RegisterOperatorServiceServer(s, f)
	hs := health.NewServer()
	hs.SetServingStatus("temporal.api.workflowservice.v1.WorkflowService", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(s, hs)
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(s.Stop)
	f.Address = ln.Addr().String()
	return f
}

// ServerName is the name of its certificate.
func (f *Frontend) ServerName() string { return f.opts.ServerName }

// Namespace is its namespace.
func (f *Frontend) Namespace() string { return f.opts.Namespace }

func (f *Frontend) intercept(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	f.mu.Lock()
	f.calls = append(f.calls, md)
	f.mu.Unlock()
	if f.opts.APIKey != "" {
		if got := md.Get("authorization"); len(got) != 1 || got[0] != "Bearer "+f.opts.APIKey {
			return nil, status.Error(codes.Unauthenticated, "Request unauthorized")
		}
	}
	resp, err := h(ctx, req)
	if err != nil {
		// As Temporal's server does: service errors travel as gRPC statuses with details.
		return nil, serviceerror.ToStatus(err).Err()
	}
	return resp, nil
}

// Calls is the metadata of every call so far.
func (f *Frontend) Calls() []metadata.MD {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]metadata.MD(nil), f.calls...)
}

// AddWithTcld adds search attributes as an operator does with `tcld namespace
// search-attributes add`.
func (f *Frontend) AddWithTcld(attrs map[string]enumspb.IndexedValueType) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, v := range attrs {
		f.attrs[k] = v
	}
}

// GetSystemInfo answers the SDK's first call.
func (f *Frontend) GetSystemInfo(context.Context, *workflowservice.GetSystemInfoRequest) (*workflowservice.GetSystemInfoResponse, error) {
	return &workflowservice.GetSystemInfoResponse{}, nil
}

// DescribeNamespace knows its one namespace.
func (f *Frontend) DescribeNamespace(_ context.Context, r *workflowservice.DescribeNamespaceRequest) (*workflowservice.DescribeNamespaceResponse, error) {
	if r.GetNamespace() != f.opts.Namespace {
		return nil, serviceerror.NewNamespaceNotFound(r.GetNamespace())
	}
	return &workflowservice.DescribeNamespaceResponse{NamespaceInfo: &namespacepb.NamespaceInfo{Name: f.opts.Namespace}}, nil
}

// ListSearchAttributes lists the custom attributes added so far.
func (f *Frontend) ListSearchAttributes(context.Context, *operatorservice.ListSearchAttributesRequest) (*operatorservice.ListSearchAttributesResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	custom := map[string]enumspb.IndexedValueType{}
	for k, v := range f.attrs {
		custom[k] = v
	}
	return &operatorservice.ListSearchAttributesResponse{CustomAttributes: custom}, nil
}

// AddSearchAttributes through the operator API is refused, as on Temporal Cloud.
func (f *Frontend) AddSearchAttributes(context.Context, *operatorservice.AddSearchAttributesRequest) (*operatorservice.AddSearchAttributesResponse, error) {
	return nil, serviceerror.NewPermissionDenied("Request unauthorized", "")
}
