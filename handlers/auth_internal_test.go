package handlers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTokenMatches(t *testing.T) {
	const tok = "0123456789abcdefghijklmnopqrstuvwxyz"
	for _, tc := range []struct {
		got  string
		want bool
	}{
		{tok, true},
		{"", false},
		{tok[:len(tok)-1], false},
		{tok + "x", false},
		{strings.ToUpper(tok), false},
	} {
		if got := tokenMatches([]byte(tc.got), []byte(tok)); got != tc.want {
			t.Errorf("tokenMatches(%q): got %v, want %v", tc.got, got, tc.want)
		}
	}
}

// TestTokensAreComparedInConstantTime fails when a credential is compared
// with == or bytes.Equal anywhere in the package: those return at the first
// differing byte, which tells an attacker how much of a guess was right.
func TestTokensAreComparedInConstantTime(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			text := func(e ast.Node) string {
				return strings.ToLower(string(src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset]))
			}
			credential := func(e ast.Node) bool {
				s := text(e)
				return (strings.Contains(s, "token") || strings.Contains(s, "session")) && !strings.Contains(s, "tokenparam") && !strings.Contains(s, "len(")
			}
			switch x := n.(type) {
			case *ast.BinaryExpr:
				empty := func(e ast.Expr) bool { l, ok := e.(*ast.BasicLit); return ok && l.Value == `""` }
				if (x.Op == token.EQL || x.Op == token.NEQ) && (credential(x.X) || credential(x.Y)) && !empty(x.X) && !empty(x.Y) {
					t.Errorf("%s: %s compares a credential with %s; use tokenMatches", fset.Position(x.Pos()), text(x), x.Op)
				}
			case *ast.CallExpr:
				if s := text(x.Fun); (s == "bytes.equal" || s == "hmac.equal") && credential(x) {
					t.Errorf("%s: %s; use tokenMatches", fset.Position(x.Pos()), text(x))
				}
			}
			return true
		})
	}
	src, _ := os.ReadFile("auth.go")
	if !strings.Contains(string(src), "subtle.ConstantTimeCompare") {
		t.Errorf("auth.go no longer uses subtle.ConstantTimeCompare")
	}
}
