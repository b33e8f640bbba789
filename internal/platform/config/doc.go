package config

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"
)

// Masked stands for the value of a secret that is set.
const Masked = "****"

// Current is one setting as `herald config` shows it.
type Current struct {
	Setting
	// Value is the value in effect: the variable's when it is set, else the default as the
	// docs write it; a secret reads Masked, a URL has its password masked.
	Value string
	// Set reports whether the variable is set (not blank).
	Set bool
}

// Resolve lists every setting with its value in getenv, secrets masked.
func Resolve(getenv func(string) string) []Current {
	out := make([]Current, 0, len(settings))
	for _, s := range settings {
		raw := getenv(s.Name)
		if !s.Verbatim {
			raw = strings.TrimSpace(raw)
		}
		c := Current{Setting: s, Value: raw, Set: raw != ""}
		switch {
		case !c.Set:
			c.Value = s.DefaultDoc
		case s.Secret:
			c.Value = Masked
		}
		if s.MaskURL {
			c.Value = MaskURL(c.Value)
		}
		out = append(out, c)
	}
	return out
}

// WriteTable prints every setting for `herald config`: its name, default, current value
// (secrets masked), whether it is set, and its description.
func WriteTable(w io.Writer, getenv func(string) string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tDEFAULT\tCURRENT\tSET\tDESCRIPTION")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, c := range Resolve(getenv) {
		set := "no"
		if c.Set {
			set = "yes"
		}
		def := c.DefaultDoc
		if c.MaskURL {
			def = MaskURL(def)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Name, dash(short(def)), dash(short(c.Value)), set, c.Description)
	}
	return tw.Flush()
}

// short cuts a long value (a JSON list of plans) to keep the table readable.
func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

var settingName = regexp.MustCompile(`\$?\bHERALD_[A-Z0-9_]+\b`)

// Markdown is docs/configuration.md: every setting with its default, description and an
// example, generated from the struct tags (`herald config --markdown`, `make docs-config`).
func Markdown() string {
	var b strings.Builder
	b.WriteString(markdownIntro)
	b.WriteString("| variable | default | description | example |\n|---|---|---|---|\n")
	code := func(s string) string {
		if s == "" {
			return "—"
		}
		return "`" + s + "`"
	}
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, s := range settings {
		def := code(s.Default)
		if s.DefaultDoc != s.Default {
			def = settingName.ReplaceAllString(s.DefaultDoc, "`$0`")
		}
		// Prose: names of other settings read as code; < and * are not markup.
		desc := settingName.ReplaceAllStringFunc(s.Description, func(n string) string {
			if n == s.Name {
				return n
			}
			return "`" + n + "`"
		})
		desc = strings.NewReplacer("<", "&lt;", "*", `\*`).Replace(desc)
		if s.Secret {
			desc += " (secret: never shown)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", s.Name, cell(def), cell(desc), cell(code(s.Example)))
	}
	b.WriteString(markdownTracing)
	return b.String()
}

const markdownIntro = `# Configuration

<!-- Generated from the struct tags of internal/platform/config by ` + "`make docs-config`" + ` (herald config --markdown). Do not edit. -->

Every setting is an environment variable with a default that works on a developer machine. The
typed configuration (` + "`internal/platform/config`" + `) is the one place that names each variable: its
struct tags hold the variable, the default, the description and an example, and this page and
` + "`herald config`" + ` are generated from them.

` + "`herald config`" + ` prints every setting with its default, its current value in the environment
and whether it is set; secrets read ` + "`****`" + ` and the password of a URL is masked. On bad values
every Herald command refuses to start and lists every problem at once, each naming its variable
and what it expects.

How values are written:

- durations: a number with a unit, ` + "`ms`, `s`, `m`, `h`" + ` (` + "`500ms`, `15m`, `8760h`" + `), or a whole number of
  days such as ` + "`365d`" + `;
- sizes: a number of bytes (` + "`1048576`" + `) or one with a binary unit, ` + "`KiB`, `MiB`, `GiB`" + ` (` + "`1MiB`" + `);
- lists: comma separated; blanks around entries and empty entries are ignored;
- booleans: ` + "`true`/`false`" + ` (also ` + "`1`/`0`" + `);
- a blank value is the same as an unset one.

`

const markdownTracing = `
## Tracing

Traces are exported over OTLP when ` + "`OTEL_TRACES_EXPORTER=otlp`" + ` or an endpoint is set
(` + "`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`" + `), unless
` + "`OTEL_SDK_DISABLED=true`" + ` or ` + "`OTEL_TRACES_EXPORTER=none`" + `. The protocol is
` + "`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`" + ` or ` + "`OTEL_EXPORTER_OTLP_PROTOCOL`" + `: ` + "`http/protobuf`" + ` (the default) or
` + "`grpc`" + `. The other standard ` + "`OTEL_*`" + ` variables apply as the OpenTelemetry SDK defines them
(` + "`…_HEADERS`, `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`" + `).
`
