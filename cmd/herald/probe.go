package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/heraldhq/herald/internal/cli"
)

// probeTimeout bounds one `herald probe`: a container health check has its own timeout,
// and a probe that hangs past it only hides why it failed.
const probeTimeout = 3 * time.Second

// runProbe is a container's health check where the image has no shell and no curl (the
// distroless image of the Dockerfile): it GETs url and succeeds on a 2xx answer, printing
// the status otherwise (exit status 1). Only this machine's own listeners may be probed
// (http on loopback): the command is not a general HTTP client.
func runProbe(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("%w: herald probe http://127.0.0.1:PORT/PATH", errUsage)
	}
	u, err := url.Parse(args[0])
	if err != nil || u.Scheme != "http" || !loopbackHost(u.Hostname()) {
		return fmt.Errorf("%w: herald probe takes an http URL on 127.0.0.1, ::1 or localhost, got %q", errUsage, args[0])
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	// No redirects: a probe judges the listener's own answer.
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		fmt.Fprintf(stdout, "%s: %v\n", u, err)
		return cli.ErrFailed
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		fmt.Fprintf(stdout, "%s: %s\n", u, res.Status)
		return cli.ErrFailed
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
