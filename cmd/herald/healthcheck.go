package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"strings"
	"time"

	"github.com/heraldhq/herald/internal/platform/config"
)

// healthcheckTimeout bounds one GET of herald healthcheck: a container health check has
// its own timeout, and a check that hangs past it only hides why it failed.
const healthcheckTimeout = 3 * time.Second

// runHealthcheck is the container image's health check, for images without a shell or
// curl (distroless): it GETs /livez and succeeds on a 2xx answer. Without --url it asks
// the API listener (HERALD_HTTP_ADDR), then the metrics listener (HERALD_METRICS_ADDR),
// which a worker, serving no API, also opens; either answering is healthy. It reads only
// those two variables: a health check must not fail on an unrelated setting. --url (e.g.
// http://127.0.0.1:8080/readyz) must be http on this machine's loopback: the command is
// not a general HTTP client.
func runHealthcheck(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	url := fs.String("url", "", "the URL to GET instead of /livez on the local listeners")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fmt.Errorf("%w: herald healthcheck [--url URL]", errUsage)
	}
	urls := []string{*url}
	if *url == "" {
		urls = livezURLs(getenv)
	} else if u, err := neturl.Parse(*url); err != nil || u.Scheme != "http" || !loopbackHost(u.Hostname()) {
		return fmt.Errorf("%w: herald healthcheck --url takes an http URL on 127.0.0.1, ::1 or localhost, got %q", errUsage, *url)
	}
	// No redirects: a health check judges the listener's own answer.
	client := &http.Client{Timeout: healthcheckTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var errs []error
	for _, u := range urls {
		err := getOK(ctx, client, u)
		if err == nil {
			fmt.Fprintln(stdout, "healthy:", u)
			return nil
		}
		errs = append(errs, err)
	}
	return fmt.Errorf("unhealthy: %w", errors.Join(errs...))
}

// livezURLs are the /livez URLs of the API listener and of the metrics listener, each
// on loopback when it listens on every address.
func livezURLs(getenv func(string) string) []string {
	defaults := config.Defaults()
	var urls []string
	for _, v := range []struct{ name, dflt string }{
		{"HERALD_HTTP_ADDR", defaults.HTTPAddr},
		{"HERALD_METRICS_ADDR", defaults.Ops.MetricsAddr},
	} {
		addr := strings.TrimSpace(getenv(v.name))
		if addr == "" {
			addr = v.dflt
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil { // "off", or a bad value that the process itself reports
			continue
		}
		if host == "" || net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified() {
			host = "127.0.0.1"
		}
		urls = append(urls, "http://"+net.JoinHostPort(host, port)+"/livez")
	}
	return urls
}

// getOK GETs u and wants 200.
func getOK(ctx context.Context, client *http.Client, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return nil
}

// loopbackHost reports whether host names this machine only.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
