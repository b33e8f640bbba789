package herald_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// module is the import path prefix of Herald's own packages.
const module = "github.com/heraldhq/herald"

// TestImportsFollowArchitecture reads the production import graph with `go list` and checks it
// against the table of allowed imports in docs/architecture.md ("Allowed imports between
// areas"): an import from one area to another that the table does not allow fails, and so
// does an allowance that no import uses any more, so the document stays true both ways.
func TestImportsFollowArchitecture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := parseImportRules(doc)
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	statGoFiles(t)
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	graph := parseGraph(out)
	problems, unused := checkImports(graph, rules)
	for _, p := range problems {
		t.Error(p)
	}
	for _, u := range unused {
		t.Errorf("docs/architecture.md allows %s, but no package imports it any more: remove the entry", u)
	}
}

// statGoFiles stats every Go file of the module: the test cache keys a cached result on the
// files a test opened or stat'ed, so an edited import makes the test run again instead of
// answering from the cache (go list, a child process, is invisible to it).
func statGoFiles(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "testdata", "dist":
				return filepath.SkipDir
			}
			if path != "." {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module (sdk/go, deploy/…)
				}
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// importRules maps an area to the packages (or package prefixes) it may import from other areas.
type importRules map[string][]string

var (
	tickRE  = regexp.MustCompile("`([^`]+)`")
	parenRE = regexp.MustCompile(`\([^)]*\)`)
)

// parseImportRules reads the markdown table between the import-rules markers: the first
// backticked word of a row's first cell is the area, the backticked words of its second cell
// (outside parentheses, which explain) are what it may import.
func parseImportRules(doc []byte) (importRules, error) {
	begin := bytes.Index(doc, []byte("<!-- import-rules:begin -->"))
	end := bytes.Index(doc, []byte("<!-- import-rules:end -->"))
	if begin < 0 || end < begin {
		return nil, fmt.Errorf("no import-rules table (markers <!-- import-rules:begin --> and <!-- import-rules:end -->)")
	}
	rules := importRules{}
	sc := bufio.NewScanner(bytes.NewReader(doc[begin:end]))
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 4 {
			continue
		}
		from := tickRE.FindStringSubmatch(cells[1])
		if from == nil {
			continue // the header and its rule
		}
		if _, dup := rules[from[1]]; dup {
			return nil, fmt.Errorf("area %s has two rows", from[1])
		}
		rules[from[1]] = []string{}
		for _, m := range tickRE.FindAllStringSubmatch(parenRE.ReplaceAllString(cells[2], ""), -1) {
			rules[from[1]] = append(rules[from[1]], m[1])
		}
	}
	if len(rules) == 0 {
		return nil, fmt.Errorf("the import-rules table has no rows")
	}
	return rules, nil
}

// parseGraph turns `go list` lines (package, then its imports) into module-relative paths,
// keeping only Herald's own imports. The root package is "herald".
func parseGraph(out []byte) map[string][]string {
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		src := relPath(fields[0])
		graph[src] = graph[src][:0:0]
		for _, imp := range fields[1:] {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				graph[src] = append(graph[src], relPath(imp))
			}
		}
	}
	return graph
}

func relPath(p string) string {
	if p == module {
		return "herald"
	}
	return strings.TrimPrefix(p, module+"/")
}

// areaOf is a package's area: its top-level folder, or internal/<area>.
func areaOf(pkg string) string {
	parts := strings.Split(pkg, "/")
	if parts[0] == "internal" && len(parts) > 1 {
		return "internal/" + parts[1]
	}
	return parts[0]
}

// covers reports whether an allowance (a package or area path) covers a package.
func covers(entry, pkg string) bool {
	return pkg == entry || strings.HasPrefix(pkg, entry+"/")
}

// checkImports lists every cross-area import the rules do not allow, and every allowance no
// import uses.
func checkImports(graph map[string][]string, rules importRules) (problems, unused []string) {
	used := map[string]bool{}
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, src := range pkgs {
		from := areaOf(src)
		allowed, known := rules[from]
		for _, imp := range graph[src] {
			if areaOf(imp) == from {
				continue
			}
			if !known {
				problems = append(problems, fmt.Sprintf("%s imports %s, but its area %s has no row in docs/architecture.md's import table", src, imp, from))
				continue
			}
			ok := false
			for _, entry := range allowed {
				if covers(entry, imp) {
					used[from+" → "+entry] = true
					ok = true
				}
			}
			if !ok {
				problems = append(problems, fmt.Sprintf("%s imports %s: docs/architecture.md does not allow %s → %s (move the code, or add the allowance with its reason)", src, imp, from, areaOf(imp)))
			}
		}
	}
	for from, entries := range rules {
		for _, entry := range entries {
			if !used[from+" → "+entry] {
				unused = append(unused, from+" → "+entry)
			}
		}
	}
	sort.Strings(unused)
	return problems, unused
}

// TestCheckImports shows the check failing on an import the table does not allow and on an
// allowance nothing uses.
func TestCheckImports(t *testing.T) {
	rules := importRules{"workflows": {"internal/flow/flowdef"}, "internal/flow": {"db"}, "db": {}}
	graph := map[string][]string{
		"workflows/flowrun": {"internal/flow/flowdef", "workflows/visibility"},
		"workflows/send":    {"internal/flow"},
		"internal/flow":     {"internal/flow/flowdef"},
		"db":                nil,
	}
	problems, unused := checkImports(graph, rules)
	if len(problems) != 1 || !strings.Contains(problems[0], "workflows/send imports internal/flow") {
		t.Errorf("problems = %q, want the one import of internal/flow by workflows/send", problems)
	}
	if len(unused) != 1 || unused[0] != "internal/flow → db" {
		t.Errorf("unused = %q, want internal/flow → db", unused)
	}
	graph["cmd/herald"] = []string{"db"}
	if problems, _ := checkImports(graph, rules); len(problems) != 2 {
		t.Errorf("a package of an area with no row: problems = %q", problems)
	}
	doc := []byte("<!-- import-rules:begin -->\n| area | may import |\n|---|---|\n| `worker` | `activities`, `workflows` (their `contract.go`) |\n<!-- import-rules:end -->")
	r, err := parseImportRules(doc)
	if err != nil || len(r["worker"]) != 2 {
		t.Errorf("parse = %v, %v; want worker → activities, workflows", r, err)
	}
}
