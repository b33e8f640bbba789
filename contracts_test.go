package herald_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// untypedActivityCalls are the SDK functions that name an activity by a string or take any
// function: outside workflows/contract they would bypass the typed descriptors.
var untypedActivityCalls = map[string]bool{
	"ExecuteActivity":             true,
	"ExecuteLocalActivity":        true,
	"RegisterActivity":            true,
	"RegisterActivityWithOptions": true,
}

// TestActivitiesGoThroughTypedContracts fails when production code calls or registers an
// activity without its typed descriptor (workflows/contract): a workflow that passed a
// wrong input, or a worker that registered a drifted signature, would then compile and fail
// only inside a history.
func TestActivitiesGoThroughTypedContracts(t *testing.T) {
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch {
			case path == "workflows/contract", path == "sdk", path == "web", path != "." && strings.HasPrefix(d.Name(), "."), d.Name() == "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && untypedActivityCalls[sel.Sel.Name] {
				found = append(found, fset.Position(call.Pos()).String()+": "+sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: declare the activity in its workflow's contract.go (contract.Define / DefineAction) and call or register it through the descriptor", f)
	}
}
