// Package cli is the herald command-line client: subcommands of the herald binary that
// keep an app's templates, layouts, translations, categories and workflows as files
// (pull, validate, push, diff), move them between environments (commit, publish), and try
// a send from the terminal (send, logs). They call the management API (/v1) with a CLI
// token; see docs/cli.md.
//
// The work is split by concern: package api is the HTTP client, files maps resources to
// files and back, check validates a folder with the server's own rules, plan compares a
// folder with an app. This package parses the command line and prints.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"golang.org/x/term"

	"github.com/heraldhq/herald/internal/cli/api"
)

// ErrUsage marks a command-line mistake (exit status 2).
var ErrUsage = errors.New("usage")

// ErrFailed marks a command that printed why it failed (problems found, differences with
// --exit-code): exit status 1 without a further message.
var ErrFailed = errors.New("failed")

// Env is what a command reads and writes besides the server.
type Env struct {
	Getenv         func(string) string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Terminal reports whether stdout is a terminal (colours and progress).
	Terminal bool
	// OpenAPI is the management API's OpenAPI document, the source of the workflow
	// file schema that pull writes.
	OpenAPI []byte
	// ReadSecret reads a line from the terminal without echoing it (nil: stdin is no
	// terminal, and login reads the token from Stdin).
	ReadSecret func() (string, error)
}

// Commands are the client subcommands, each with its one-line summary.
var Commands = []struct{ Name, Args, Summary string }{
	{"login", "[--url URL] [--token TOKEN]", "store a CLI token and the server URL in a profile"},
	{"logout", "", "forget a profile's token"},
	{"whoami", "", "who the token acts for, on which client, with which role"},
	{"apps list", "", "the apps (environments) of the token's client"},
	{"pull", "--app APP [DIR]", "write the app's templates, layouts, translations, categories, workflows to DIR"},
	{"validate", "[DIR]", "check DIR's files with the server's rules; every problem with file and line"},
	{"diff", "--app APP [DIR]", "what differs between DIR and the app"},
	{"push", "--app APP [DIR] [--dry-run] [--prune]", "upload what differs as uncommitted changes (plan first)"},
	{"changes", "--app APP", "the app's uncommitted changes"},
	{"commit", "--app APP -m MSG", "commit the app's uncommitted changes"},
	{"commits", "--app APP [--limit N]", "the app's latest commits and where each is published"},
	{"publish", "--app APP [--commit ID] --to APP", "publish a commit (default: the latest) to another app"},
	{"send", "--app APP --workflow W --to USER [--data JSON]", "send a notification for a quick test"},
	{"logs", "--app APP [--follow] [--webhooks [--status S]]", "the app's message log, or with --webhooks its event webhook deliveries; --follow prints new lines as they come"},
}

// IsCommand reports whether args start a client subcommand ("apps list" is one; the
// server's "apps create" is not).
func IsCommand(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if args[0] == "apps" {
		return len(args) > 1 && args[1] == "list"
	}
	for _, c := range Commands {
		if c.Name == args[0] {
			return true
		}
	}
	return false
}

// Usage is the help text of the client subcommands.
func Usage() string {
	var b strings.Builder
	for _, c := range Commands {
		line := "  herald " + c.Name
		if c.Args != "" {
			line += " " + c.Args
		}
		if len(line) > 50 {
			fmt.Fprintf(&b, "%s\n  %-50s%s\n", line, "", c.Summary)
		} else {
			fmt.Fprintf(&b, "%-52s%s\n", line, c.Summary)
		}
	}
	b.WriteString("  APP is an app's id or name. Every client command takes --profile NAME, --json (output for scripts) and --no-color;\n" +
		"  HERALD_URL, HERALD_TOKEN, HERALD_PROFILE and HERALD_APP override the profile and --app.\n")
	return b.String()
}

// Run executes one client subcommand; args[0] is its name.
func Run(ctx context.Context, args []string, env Env) error {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	r := &runner{env: &env, ctx: ctx}
	switch args[0] {
	case "login":
		return r.login(args[1:])
	case "logout":
		return r.logout(args[1:])
	case "whoami":
		return r.whoami(args[1:])
	case "apps":
		if len(args) < 2 || args[1] != "list" {
			return fmt.Errorf("%w: herald apps list", ErrUsage)
		}
		return r.apps(args[2:])
	case "pull":
		return r.pull(args[1:])
	case "validate":
		return r.validate(args[1:])
	case "diff":
		return r.diff(args[1:])
	case "push":
		return r.push(args[1:])
	case "changes":
		return r.changes(args[1:])
	case "commit":
		return r.commit(args[1:])
	case "commits":
		return r.commits(args[1:])
	case "publish":
		return r.publish(args[1:])
	case "send":
		return r.send(args[1:])
	case "logs":
		return r.logs(args[1:])
	}
	return fmt.Errorf("%w: unknown subcommand %q", ErrUsage, args[0])
}

// runner holds one command's parsed common flags.
type runner struct {
	env     *Env
	ctx     context.Context
	json    bool
	color   bool
	profile string
	app     int64
	appRef  string
	noColor bool
}

// flags returns a flag set with the common flags; withApp adds --app.
func (r *runner) flags(name string, withApp bool) *flag.FlagSet {
	fs := flag.NewFlagSet("herald "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&r.json, "json", false, "print JSON for scripts")
	fs.BoolFunc("no-color", "no colours", func(string) error { r.noColor = true; return nil })
	r.profile = r.env.Getenv("HERALD_PROFILE")
	if r.profile == "" {
		r.profile = "default"
	}
	fs.StringVar(&r.profile, "profile", r.profile, "the profile (server and token) to use")
	if withApp {
		fs.Func("app", "the app: its id or its name", func(v string) error {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("--app must name an app (its id or name; herald apps list shows them)")
			}
			r.appRef = v
			return nil
		})
	}
	return fs
}

// parse parses flags and positional arguments in any order, returning the positional
// ones; more than maxArgs is a usage error.
func (r *runner) parse(fs *flag.FlagSet, args []string, maxArgs int) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, fmt.Errorf("%w: %s: %v (herald help lists the commands)", ErrUsage, fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	r.color = r.env.Terminal && r.env.Getenv("NO_COLOR") == "" && !r.noColor
	if len(pos) > maxArgs {
		return nil, fmt.Errorf("%w: %s: unexpected argument %q", ErrUsage, fs.Name(), pos[maxArgs])
	}
	if fs.Lookup("app") != nil && r.appRef == "" {
		r.appRef = r.env.Getenv("HERALD_APP")
		if r.appRef == "" {
			return nil, fmt.Errorf("%w: %s needs --app (an app's id or name; or HERALD_APP; herald apps list shows them)", ErrUsage, fs.Name())
		}
	}
	return pos, nil
}

// client returns an API client for the profile, and resolves --app.
func (r *runner) client() (*api.Client, error) {
	p, err := r.env.profile(r.profile)
	if err != nil {
		return nil, err
	}
	c := api.New(p.URL, p.Token)
	if r.appRef != "" {
		if r.app, err = r.resolveApp(c, r.appRef); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// resolveApp reads an app reference: an id, or the name of one of the client's apps.
func (r *runner) resolveApp(c *api.Client, ref string) (int64, error) {
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil && n > 0 {
		return n, nil
	}
	clients, err := c.Clients(r.ctx)
	if err != nil {
		return 0, err
	}
	var names []string
	var found []int64
	for _, cl := range clients {
		apps, err := c.Apps(r.ctx, cl.ID)
		if err != nil {
			return 0, err
		}
		for _, a := range apps {
			names = append(names, a.Name)
			if a.Name == ref {
				found = append(found, a.ID)
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return 0, fmt.Errorf("no app named %q; the apps are: %s (or give the id)", ref, strings.Join(names, ", "))
	}
	return 0, fmt.Errorf("%d apps are named %q: give the id instead (herald apps list)", len(found), ref)
}

// out prints a line for people (nothing with --json).
func (r *runner) out(format string, args ...any) {
	if !r.json {
		fmt.Fprintf(r.env.Stdout, format+"\n", args...)
	}
}

// note prints to stderr (progress, warnings): never mixed into --json output.
func (r *runner) note(format string, args ...any) {
	fmt.Fprintf(r.env.Stderr, format+"\n", args...)
}

// printJSON prints v for scripts.
func (r *runner) printJSON(v any) error {
	enc := json.NewEncoder(r.env.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Colours (only on a terminal, and never with NO_COLOR).
const (
	red    = "31"
	green  = "32"
	yellow = "33"
	cyan   = "36"
	bold   = "1"
)

func (r *runner) paint(code, s string) string {
	if !r.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// table prints rows under a header, aligned.
func (r *runner) table(header []string, rows [][]string) {
	tw := tabwriter.NewWriter(r.env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, r.paint(bold, strings.Join(header, "\t")))
	for _, row := range rows {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

func dirArg(pos []string) string {
	if len(pos) > 0 {
		return pos[0]
	}
	return "."
}

// isTerminal reports whether f is a character device.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// StdEnv is the environment of the process.
func StdEnv(openAPI []byte) Env {
	env := Env{Getenv: os.Getenv, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Terminal: isTerminal(os.Stdout), OpenAPI: openAPI}
	if fd := int(os.Stdin.Fd()); term.IsTerminal(fd) {
		env.ReadSecret = func() (string, error) {
			b, err := term.ReadPassword(fd)
			return string(b), err
		}
	}
	return env
}
