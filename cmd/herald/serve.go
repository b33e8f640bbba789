package main

import (
	"context"
	"log/slog"

	"golang.org/x/sync/errgroup"

	"github.com/heraldhq/herald/config"
	"github.com/heraldhq/herald/stack"
)

// open resolves the secret key and opens the stack.
func open(ctx context.Context, cfg config.Config, log *slog.Logger, generateKey bool) (*stack.Stack, error) {
	key, err := stack.SecretKey(cfg, generateKey)
	if err != nil {
		return nil, err
	}
	cfg.SecretKey = key
	log.Info("herald starting", cfg.Summary()...)
	return stack.Open(ctx, cfg, log)
}

func runAPI(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	s, err := open(ctx, cfg, log, false)
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

func runWorker(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	s, err := open(ctx, cfg, log, false)
	if err != nil {
		return err
	}
	defer s.Close()
	log.Info("worker polling", "taskQueue", cfg.TaskQueue, "temporal", cfg.TemporalAddress)
	return s.RunWorker(ctx)
}
