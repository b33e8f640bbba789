package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/temporalconn"
	"github.com/heraldhq/herald/internal/testkit/temporalcluster"
	"github.com/heraldhq/herald/internal/testkit/tlstest"
)

// serverName is the name the frontend's certificate carries, other than the address the
// clients dial (127.0.0.1), so that HERALD_TEMPORAL_TLS_SERVER_NAME is exercised too.
const serverName = "temporal-frontend.herald.test"

// makeCertificates writes a CA, the frontend's certificate, the system worker's and a
// Herald client certificate into dir, and returns them with the HERALD_* variables of a
// Herald client.
func makeCertificates(dir string) (*temporalcluster.TLS, []string, error) {
	// Absolute: the command's tests run in their packages' folders.
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	ca, files, err := tlstest.WriteFiles(dir, serverName, "herald")
	if err != nil {
		return nil, nil, err
	}
	worker, err := ca.Issue(tlstest.LeafOptions{CommonName: "temporal-system-worker", Client: true})
	if err != nil {
		return nil, nil, err
	}
	workerCert, workerKey, err := worker.Write(dir, "system-worker")
	if err != nil {
		return nil, nil, err
	}
	certs := &temporalcluster.TLS{
		CA: files.CA, ServerCert: files.ServerCert, ServerKey: files.ServerKey, ServerName: serverName,
		WorkerCert: workerCert, WorkerKey: workerKey, ClientCert: files.ClientCert, ClientKey: files.ClientKey,
	}
	env := []string{
		"HERALD_TEMPORAL_TLS_CA_FILE=" + files.CA,
		"HERALD_TEMPORAL_TLS_CERT_FILE=" + files.ClientCert,
		"HERALD_TEMPORAL_TLS_KEY_FILE=" + files.ClientKey,
		"HERALD_TEMPORAL_TLS_SERVER_NAME=" + serverName,
	}
	return certs, env, nil
}

// checkMutualTLS checks that the frontend is what the run claims: Herald's settings
// connect, and the same without the client certificate are refused.
func checkMutualTLS(ctx context.Context, address string, env []string) error {
	vars := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		return err
	}
	good, err := temporalconn.New(address, "default", cfg.TemporalClient, nil)
	if err != nil {
		return err
	}
	if err := good.Check(ctx, nil); err != nil {
		return fmt.Errorf("Herald's mutual-TLS settings do not connect: %w", err)
	}
	noCert := cfg.TemporalClient
	noCert.CertFile, noCert.KeyFile = "", ""
	bare, err := temporalconn.New(address, "default", noCert, nil)
	if err != nil {
		return err
	}
	err = bare.Check(ctx, nil)
	var setup *temporalconn.SetupError
	if !errors.As(err, &setup) || setup.Setting != "HERALD_TEMPORAL_TLS_CERT_FILE" {
		return fmt.Errorf("a client without a certificate was not refused for it (got %v): the frontend does not require mutual TLS", err)
	}
	fmt.Fprintf(os.Stderr, "temporal-cluster: a client without a certificate: %v\n", err)
	return nil
}
