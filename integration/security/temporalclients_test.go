package security

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// temporalClientsWithoutCodec are the Temporal clients made outside the stack, with why they
// need no payload codec (file:function). A new one must use the stack's client, or set
// temporalcodec's converters on its options (Codec.Apply), or be added here with its reason.
var temporalClientsWithoutCodec = map[string]string{
	"internal/platform/devenv/temporal.go:waitReady":       "readiness probe of the dev server: DescribeNamespace only, no payload",
	"internal/testkit/temporalcluster/cluster.go:register": "registers the namespace of the test cluster: no payload",
	"internal/stack/doctor.go:OpenDoctor":                  "herald doctor: describes the namespace and lists search attributes, no payload",
	"internal/testkit/bench/broadcast.go:waitBroadcast":    "benchmark: DescribeWorkflowExecution for the status only",
	"internal/testkit/bench/broadcast.go:historySizes":     "benchmark: ListWorkflow for history lengths only",
	"internal/testkit/bench/broadcast.go:histories":        "benchmark: ListWorkflow for history lengths only",
	"internal/testkit/bench/delivery.go:TrivialWorkflows":  "benchmark reference: Temporal alone running a no-op workflow of its own, no Herald data",
	"internal/testkit/bench/isolation_trace.go:traceSends": "benchmark: reads the event types and times of a run's history, never a payload",
	"internal/testkit/bench/local.go:waitPollers":          "benchmark: DescribeTaskQueue for the pollers of a split stack, no payload",
}

// TestEveryTemporalClientEncrypts reads every Go file of the module (tests aside) for the
// calls that make a Temporal client (client.Dial, DialContext, NewLazyClient, NewClient,
// NewNamespaceClient of go.temporal.io/sdk/client). The stack's own client must take its
// options from the payload codec; any other must be reviewed above. A client writing
// Herald's payloads without the codec would put personal data in Temporal in clear.
func TestEveryTemporalClientEncrypts(t *testing.T) {
	root := moduleRoot(t)
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if (strings.HasPrefix(d.Name(), ".") && rel != ".") || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		alias := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "go.temporal.io/sdk/client" {
				alias = "client"
				if imp.Name != nil {
					alias = imp.Name.Name
				}
			}
		}
		if alias == "" {
			return nil
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok || x.Name != alias || !slices.Contains([]string{"Dial", "DialContext", "NewLazyClient", "NewClient", "NewNamespaceClient"}, sel.Sel.Name) {
					return true
				}
				found = append(found, filepath.ToSlash(rel)+":"+fn.Name.Name)
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, site := range found {
		if site == "internal/stack/stack.go:Open" {
			continue // checked below
		}
		if _, ok := temporalClientsWithoutCodec[site]; !ok {
			t.Errorf("%s makes a Temporal client without the payload codec: use the stack's client, or temporalcodec's Codec.Apply on its options, or add it to temporalClientsWithoutCodec with the reason it needs none", site)
		}
	}
	if !slices.Contains(found, "internal/stack/stack.go:Open") {
		t.Errorf("the stack's Temporal client was not found (%v): is the search still right?", found)
	}
	src, err := os.ReadFile(filepath.Join(root, "internal", "stack", "stack.go"))
	// The options come from the connection settings (temporalClientOptions: TLS, API key,
	// timeouts), and the codec is applied to them before any client is made.
	if err != nil || !strings.Contains(string(src), "base, conn, err := temporalClientOptions(cfg, log)") ||
		!strings.Contains(string(src), "ops.temporalOptions(codec.Apply(base), log)") {
		t.Errorf("internal/stack/stack.go no longer builds its client options with codec.Apply (%v)", err)
	}
	for site := range temporalClientsWithoutCodec {
		if !slices.Contains(found, site) {
			t.Errorf("%s is reviewed but makes no Temporal client any more: remove it from temporalClientsWithoutCodec", site)
		}
	}
	t.Logf("%d Temporal clients: the stack's with the codec, %d reviewed without (%v)", len(found), len(found)-1, found)
}
