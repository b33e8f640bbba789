package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
)

// jsonReport is the --json form: the findings, a count per level and ok (no FAIL).
type jsonReport struct {
	OK       bool          `json:"ok"`
	Counts   map[Level]int `json:"counts"`
	Findings []Finding     `json:"findings"`
}

// WriteJSON writes the report as one JSON document.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	findings := r.Findings
	if findings == nil {
		findings = []Finding{}
	}
	return enc.Encode(jsonReport{OK: !r.Failed(), Counts: map[Level]int{OK: r.Count(OK), Warn: r.Count(Warn), Fail: r.Count(Fail)}, Findings: findings})
}

// colours of the levels on a terminal (ANSI).
var colours = map[Level]string{OK: "\x1b[32m", Warn: "\x1b[33m", Fail: "\x1b[31m"}

// WriteTable writes the report for people: a table of level, check and finding, each fix
// on the line below its finding, then a summary line. colour paints the levels (only on a
// terminal).
func (r Report) WriteTable(w io.Writer, colour bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LEVEL\tCHECK\tFINDING")
	for _, f := range r.Findings {
		level := string(f.Level)
		if colour {
			// Padded before painting, so the escape codes do not skew the columns.
			level = colours[f.Level] + fmt.Sprintf("%-4s", level) + "\x1b[0m"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", level, f.Check, oneLine(f.Message))
		if f.Fix != "" {
			fmt.Fprintf(tw, "\t\t→ fix: %s\n", oneLine(f.Fix))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	verdict := "ready"
	if r.Failed() {
		verdict = "NOT ready: fix every FAIL"
	}
	_, err := fmt.Fprintf(w, "\n%d ok, %d warn, %d fail — %s\n", r.Count(OK), r.Count(Warn), r.Count(Fail), verdict)
	return err
}

// Log writes the short form: one line per WARN or FAIL finding (FAIL at error level), and
// one line saying how many checks passed.
func (r Report) Log(ctx context.Context, log *slog.Logger) {
	for _, f := range r.Problems() {
		lvl := slog.LevelWarn
		if f.Level == Fail {
			lvl = slog.LevelError
		}
		log.Log(ctx, lvl, "doctor: "+f.Message, "check", f.Check, "finding", string(f.Level), "fix", f.Fix)
	}
	log.Info("doctor: checks done (run `herald doctor` for the full report)", "ok", r.Count(OK), "warn", r.Count(Warn), "fail", r.Count(Fail))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
