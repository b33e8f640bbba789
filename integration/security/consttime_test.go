package security

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// secretName matches identifiers that hold credentials: comparing them with == or
// bytes.Equal takes time that depends on how much of a guess is right, which lets an
// attacker find a secret byte by byte.
var secretName = regexp.MustCompile(`(?i)(secret|signature|password|passwd|token|hash|digest|hmac|mac$|totp|otp$|recovery|apikey|privatekey|challenge)`)

// notSecret are identifiers the pattern catches that hold no credential.
var notSecret = regexp.MustCompile(`(?i)^(tokentype|tokenprefix|.*ttl|.*count|.*kind|.*len|.*url|.*name|hashes)$`)

// reviewed are comparisons of credential-like names that are not secret comparisons, with
// the reason; a new one must be reviewed and added here (file:function: expression).
var reviewed = map[string]string{
	"internal/console/clients/roles.go:Access: clientID != a.TokenClientID":    "client ids, not the token",
	"internal/realtime/auth.go:realtimeToken: cr.APIKey != key":                "API keys are public identifiers (they ship in browser code); the token's signature is what is checked",
	"internal/testkit/smtptest/smtptest.go:Auth: pass != ss.s.Password":        "the SMTP server of the tests, not Herald",
	"api/web/cors.go:carriesSecret: strings.EqualFold(h, a.Headers.APISecret)": "header names in a preflight's Access-Control-Request-Headers, not secrets",
	"api/web/cors.go:carriesSecret: strings.EqualFold(h, a.Headers.SecretKey)": "header names in a preflight's Access-Control-Request-Headers, not secrets",
}

// TestSecretsAreComparedInConstantTime reads every Go file of the module (tests and
// generated code aside) and fails on == or != between a credential-like value and
// anything but a constant, an empty value or nil, and on bytes.Equal, strings.EqualFold
// or reflect.DeepEqual on one. Secrets are compared with secrets.Equal (crypto/subtle) or
// hmac.Equal; looking a secret up by its hash in SQL compares hashes, which leak nothing.
func TestSecretsAreComparedInConstantTime(t *testing.T) {
	root := moduleRoot(t)
	files, uses := 0, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case strings.HasPrefix(d.Name(), ".") && rel != ".", d.Name() == "testdata", d.Name() == "node_modules", rel == filepath.Join("db", "dbsqlc"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		var fn string
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				fn = n.Name.Name
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					return true
				}
				if !(credential(n.X) && !harmless(n.Y) || credential(n.Y) && !harmless(n.X)) {
					return true
				}
				report(t, fset, rel, fn, n)
			case *ast.CallExpr:
				name := callName(n)
				switch name {
				case "secrets.Equal", "subtle.ConstantTimeCompare", "hmac.Equal":
					uses++
				case "bytes.Equal", "strings.EqualFold", "reflect.DeepEqual", "slices.Equal":
					for _, arg := range n.Args {
						if credential(arg) {
							report(t, fset, rel, fn, n)
							break
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if uses < 5 {
		t.Errorf("only %d constant-time comparisons found: is the walk reading the code?", uses)
	}
	t.Logf("%d Go files reviewed: %d constant-time comparisons (secrets.Equal, hmac.Equal, subtle), no variable-time comparison of a credential", files, uses)
}

func report(t *testing.T, fset *token.FileSet, rel, fn string, n ast.Node) {
	t.Helper()
	expr := exprString(fset, n)
	key := rel + ":" + fn + ": " + expr
	if _, ok := reviewed[key]; ok {
		return
	}
	t.Errorf("%s (%s): a credential compared in variable time: %s — use secrets.Equal, or add %q to reviewed in consttime_test.go with the reason it is no secret",
		fset.Position(n.Pos()), fn, expr, key)
}

// credential reports whether an expression names a credential-like value.
func credential(e ast.Expr) bool {
	name := ""
	switch e := e.(type) {
	case *ast.Ident:
		name = e.Name
	case *ast.SelectorExpr:
		name = e.Sel.Name
	case *ast.CallExpr:
		// string(x), []byte(x)
		if len(e.Args) == 1 {
			if id, ok := e.Fun.(*ast.Ident); ok && (id.Name == "string") {
				return credential(e.Args[0])
			}
			if at, ok := e.Fun.(*ast.ArrayType); ok && at.Len == nil {
				return credential(e.Args[0])
			}
		}
		return false
	default:
		return false
	}
	return secretName.MatchString(name) && !notSecret.MatchString(name)
}

// harmless reports whether the other side of a comparison is a constant, an empty value
// or nil: checking that a credential is present leaks nothing.
func harmless(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return e.Name == "nil" || e.Name == "true" || e.Name == "false" || strings.ToUpper(e.Name[:1]) == e.Name[:1] && !credential(e)
	case *ast.SelectorExpr:
		// A package constant such as herald.EINVALID or fiber.MethodGet.
		_, pkg := e.X.(*ast.Ident)
		return pkg && !credential(e)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") {
			return true
		}
	}
	return false
}

func callName(c *ast.CallExpr) string {
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name + "." + sel.Sel.Name
		}
	}
	return ""
}

func exprString(fset *token.FileSet, n ast.Node) string {
	p := fset.Position(n.Pos())
	end := fset.Position(n.End())
	src, err := os.ReadFile(p.Filename)
	if err != nil || end.Offset > len(src) {
		return ""
	}
	return strings.Join(strings.Fields(string(src[p.Offset:end.Offset])), " ")
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}
