package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/stack"
)

// open resolves the secret key and opens the stack.
// With check set, it logs the short form of herald doctor (api and worker).
func open(ctx context.Context, cfg config.Config, log *slog.Logger, generateKey, check bool) (*stack.Stack, error) {
	key, err := stack.SecretKey(cfg, generateKey)
	if err != nil {
		return nil, err
	}
	cfg.SecretKey = key
	log.Info("herald starting", cfg.Summary()...)
	if cfg.PprofAddr != "" {
		servePprof(ctx, cfg.PprofAddr, log)
	}
	s, err := stack.Open(ctx, cfg, log)
	if err == nil && check {
		// A Temporal connection that cannot work (wrong CA, missing client certificate,
		// refused API key) stops the process now, naming the setting, not at the first send.
		if err = s.CheckTemporal(ctx); err != nil {
			s.Close()
			return nil, err
		}
		// The short form of herald doctor: WARN and FAIL findings in the log, in the
		// background so that a slow Temporal does not hold start-up.
		go s.LogDoctor(ctx)
	}
	if err == nil && cfg.Ops.Metrics && cfg.Ops.MetricsAddr != "" {
		serveMetrics(ctx, cfg.Ops.MetricsAddr, cfg.Ops.MetricsToken, s.Metrics.Handler(), log)
	}
	return s, err
}

// serveMetrics serves /metrics on a listener of its own (HERALD_METRICS_ADDR) until ctx
// ends: how a worker, which serves no HTTP API, exposes its metrics.
func serveMetrics(ctx context.Context, addr, token string, h http.Handler, log *slog.Logger) {
	srv := &http.Server{Addr: addr, Handler: metricsMux(token, h), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			log.Warn("metrics server stopped", "addr", addr, "error", err)
		}
	}()
	go func() { <-ctx.Done(); _ = srv.Close() }()
	log.Info("metrics listening", "addr", "http://"+addr+"/metrics", "token", token != "")
}

// metricsMux is the metrics listener: /metrics, behind the bearer token when one is set
// (HERALD_METRICS_TOKEN: the listener may then listen beyond loopback, as in Kubernetes
// where the scraper reaches the pod's address), and /livez, public and without data, the
// liveness of a worker process (herald healthcheck, the Helm chart's probe).
func metricsMux(token string, h http.Handler) http.Handler {
	mux := http.NewServeMux()
	if token != "" {
		want := secrets.Hash(token)
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || !secrets.Equal(secrets.Hash(strings.TrimSpace(got)), want) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
				http.Error(w, "/metrics needs the metrics token (Authorization: Bearer …)", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	mux.Handle("GET /metrics", h)
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"alive"}`)
	})
	return mux
}

// servePprof serves the profiling endpoints on their own listener until ctx ends.
func servePprof(ctx context.Context, addr string, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			log.Warn("pprof server stopped", "addr", addr, "error", err)
		}
	}()
	go func() { <-ctx.Done(); _ = srv.Close() }()
	log.Info("pprof listening", "addr", "http://"+addr+"/debug/pprof/")
}

func runAPI(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	s, err := open(ctx, cfg, log, false, true)
	if err != nil {
		return err
	}
	defer s.Close()
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return s.ServeHTTP(ctx, nil) })
	g.Go(func() error { return s.RunRelay(ctx) })
	log.Info("api listening", "addr", "http://"+cfg.HTTPAddr)
	return g.Wait()
}

// workerFlags reads the worker's flags: --queues overrides HERALD_WORKER_QUEUES.
func workerFlags(cfg *config.Config, args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	queues := fs.String("queues", "", "kinds of task queue to poll")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fmt.Errorf("%w: herald worker [--queues orchestration,email,sms,push,chat,webhook|all]", errUsage)
	}
	if *queues == "" {
		return nil
	}
	kinds, err := config.ParseQueueKinds(*queues)
	if err != nil {
		return fmt.Errorf("--queues%w", err)
	}
	cfg.WorkerQueues = kinds
	return nil
}

func runWorker(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	s, err := open(ctx, cfg, log, false, true)
	if err != nil {
		return err
	}
	defer s.Close()
	log.Info("worker polling", "taskQueue", cfg.TaskQueue, "queues", strings.Join(cfg.WorkerQueues, ","), "temporal", cfg.TemporalAddress)
	return s.RunWorker(ctx)
}
