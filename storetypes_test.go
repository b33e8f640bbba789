package herald_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// dbsqlcPath is the import path of the generated SQL package.
const dbsqlcPath = module + "/db/dbsqlc"

// generatedTypeAllowed lists the exported identifiers outside db/ that may still name a
// generated row or parameter type, as "<dir>.<Type>.<Member>" or "<dir>.<Func>", with why.
// Keep it short: a new entry needs a reason a reviewer accepts.
var generatedTypeAllowed = map[string]string{}

// TestGeneratedTypesStayBehindStores parses every production Go file outside db/ and fails
// when an exported function or method signature, an exported struct field or an exported
// type names a db/dbsqlc type other than Queries (the transaction handle). Generated row and
// parameter types are the store's business: an area maps them to its own types at its store
// edge (docs/architecture.md, "Where generated SQL types may appear").
func TestGeneratedTypesStayBehindStores(t *testing.T) {
	found, err := exportedGeneratedTypes(".")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range found {
		seen[f.key] = true
		if _, ok := generatedTypeAllowed[f.key]; ok {
			continue
		}
		t.Errorf("%s: %s names dbsqlc.%s; map the row to the area's own type at its store, or unexport it if only its package uses it", f.pos, f.key, f.typ)
	}
	for k := range generatedTypeAllowed {
		if !seen[k] {
			t.Errorf("generatedTypeAllowed lists %s, which no longer names a generated type: remove the entry", k)
		}
	}
}

// generatedUse is one exported identifier whose declaration names a generated type.
type generatedUse struct {
	pos string // file:line
	key string // <dir>.<Type>.<Member> or <dir>.<Func>
	typ string // the dbsqlc type it names
}

// exportedGeneratedTypes walks the production Go files under root (db/, testdata and
// vendored trees excluded) and returns every exported declaration that names a dbsqlc type
// other than Queries.
func exportedGeneratedTypes(root string) ([]generatedUse, error) {
	var out []generatedUse
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path == "db", name == "testdata", name == "node_modules", path == "sdk",
				path != root && strings.HasPrefix(name, "."):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		out = append(out, generatedUsesIn(fset, filepath.ToSlash(filepath.Dir(path)), f)...)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out, err
}

// generatedUsesIn returns the exported declarations of one file that name a dbsqlc type.
func generatedUsesIn(fset *token.FileSet, dir string, f *ast.File) []generatedUse {
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == dbsqlcPath {
			local = "dbsqlc"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" {
		return nil
	}
	var out []generatedUse
	report := func(n ast.Node, key string, expr ast.Node) {
		for _, typ := range namedGenerated(expr, local) {
			out = append(out, generatedUse{pos: fset.Position(n.Pos()).String(), key: dir + "." + key, typ: typ})
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			key := d.Name.Name
			if d.Recv != nil {
				recv := receiverName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				key = recv + "." + key
			}
			report(d, key, d.Type)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok || !ts.Name.IsExported() {
					continue
				}
				switch tt := ts.Type.(type) {
				case *ast.StructType:
					for _, field := range tt.Fields.List {
						for _, name := range fieldNames(field) {
							if ast.IsExported(name) {
								report(field, ts.Name.Name+"."+name, field.Type)
							}
						}
					}
				case *ast.InterfaceType:
					for _, m := range tt.Methods.List {
						for _, name := range fieldNames(m) {
							if ast.IsExported(name) {
								report(m, ts.Name.Name+"."+name, m.Type)
							}
						}
					}
				default:
					report(ts, ts.Name.Name, ts.Type)
				}
			}
		}
	}
	return out
}

// namedGenerated returns the dbsqlc types (other than Queries) that expr names.
func namedGenerated(expr ast.Node, local string) []string {
	var out []string
	ast.Inspect(expr, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && sel.Sel.Name != "Queries" {
			out = append(out, sel.Sel.Name)
		}
		return false
	})
	return out
}

// receiverName is the type name of a method's receiver (T, *T, T[P]).
func receiverName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverName(t.X)
	case *ast.IndexExpr:
		return receiverName(t.X)
	case *ast.IndexListExpr:
		return receiverName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// fieldNames are the names a field declares; an embedded field is named by its type.
func fieldNames(f *ast.Field) []string {
	if len(f.Names) > 0 {
		names := make([]string, len(f.Names))
		for i, n := range f.Names {
			names[i] = n.Name
		}
		return names
	}
	if name := receiverName(f.Type); name != "" {
		return []string{name}
	}
	if sel, ok := f.Type.(*ast.SelectorExpr); ok {
		return []string{sel.Sel.Name}
	}
	if star, ok := f.Type.(*ast.StarExpr); ok {
		if sel, ok := star.X.(*ast.SelectorExpr); ok {
			return []string{sel.Sel.Name}
		}
	}
	return nil
}

// TestGeneratedTypesCheckFindsSignatures shows the check on a small file: it names the
// exported signatures, fields and types that carry a row type, and nothing else.
func TestGeneratedTypesCheckFindsSignatures(t *testing.T) {
	src := `package p

import sql "github.com/heraldhq/herald/db/dbsqlc"

type Service struct {
	Q    *sql.Queries
	Row  sql.MessageLog
	rows []sql.MessageLog
}

type Alias = sql.App

type Store interface {
	Load(id int64) (sql.App, error)
}

func (s *Service) Step(u sql.DeliveryUsersRow) error     { return nil }
func (s *Service) step(u sql.DeliveryUsersRow) error     { return nil }
func Index(logs []sql.MessageLog, q *sql.Queries) error { return nil }
func Tx(q *sql.Queries) error                             { return nil }

type hidden struct{ Row sql.MessageLog }

func (hidden) Get() sql.MessageLog { return sql.MessageLog{} }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range generatedUsesIn(fset, "p", f) {
		got = append(got, u.key+" "+u.typ)
	}
	want := []string{
		"p.Service.Row MessageLog",
		"p.Alias App",
		"p.Store.Load App",
		"p.Service.Step DeliveryUsersRow",
		"p.Index MessageLog",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
