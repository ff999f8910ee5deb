package locales_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestUsedIDsExist fails when code names a message id that no locale file
// defines: T would show the bare id to the person in every language, and
// the completeness test cannot see it because no file has the id at all.
// It finds ids where they are spelled as literals: the id argument of a
// T call (locales.T(ctx, "Id", ...) and Localizer.T("Id", ...)) in Go and
// templ files anywhere in the module, and in views and handlers, where
// props and toasts carry ids for templates to pass to T, every string
// literal shaped like an id (CamelCase of two words or more: Message{ID:
// "Id"}, a map of statuses to ids, a return "Id"). A literal that starts
// an id built at run time ("Rel" + unit + dir) is left alone, and so is
// the built id: only a test that renders it can see it.
func TestUsedIDsExist(t *testing.T) {
	known := knownIDs(t)
	used := map[string][]string{} // id -> where
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "e2e") {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, "_test.go"):
		case strings.HasSuffix(path, ".go"):
			goIDs(t, path, used)
		case strings.HasSuffix(path, ".templ"):
			templIDs(t, path, used)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk the module: %v", err)
	}
	if len(used) < 100 {
		t.Fatalf("found %d message ids in code, want hundreds: the scan is broken", len(used))
	}
	t.Logf("checked %d message ids used in code", len(used))
	var unknown []string
	for id, where := range used {
		if !known[id] {
			unknown = append(unknown, id+" (used in "+strings.Join(where, ", ")+")")
		}
	}
	sort.Strings(unknown)
	for _, u := range unknown {
		t.Errorf("message id %s is in no locale file", u)
	}
}

// knownIDs is every message id the locale files define, in any language;
// TestCatalogsAreComplete sees that the languages agree.
func knownIDs(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("found %v (%v)", files, err)
	}
	known := map[string]bool{}
	for _, f := range files {
		var m map[string]any
		if _, err := toml.DecodeFile(f, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for k := range m {
			known[k] = true
		}
	}
	return known
}

// templTCall is a T call with a literal id in a .templ file. The generated
// Go holds the same calls; reading the source too catches an id in a
// template whose Go was not generated again.
var templTCall = regexp.MustCompile(`\bT\(\s*ctx\s*,\s*"([^"]+)"`)

func templIDs(t *testing.T, path string, used map[string][]string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	for _, m := range templTCall.FindAllSubmatch(src, -1) {
		add(used, string(m[1]), path)
	}
}

// idShaped is a literal that reads as a message id: CamelCase of two
// words or more, the way every id in the locale files is spelled.
var idShaped = regexp.MustCompile(`^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$`)

// notIDs are literals in views and handlers shaped like an id that are
// not one. Add to it only what a person never reads.
var notIDs = map[string]bool{}

func goIDs(t *testing.T, path string, used map[string][]string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	pkg := f.Name.Name
	props := pkg == "views" || pkg == "handlers"
	skip := map[*ast.BasicLit]bool{} // prefixes of built ids, map keys
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if calledName(n.Fun) != "T" {
				break
			}
			switch len(n.Args) {
			case 3: // locales.T(ctx, id, data)
				addLit(used, n.Args[1], path)
			case 2: // (*Localizer).T(id, data)
				addLit(used, n.Args[0], path)
			}
		case *ast.BinaryExpr:
			if lit, ok := n.X.(*ast.BasicLit); ok && n.Op == token.ADD {
				skip[lit] = true
			}
		case *ast.KeyValueExpr:
			if lit, ok := n.Key.(*ast.BasicLit); ok {
				skip[lit] = true // a template's data key, not an id
			}
		case *ast.Field:
			return false // struct tags and the like
		case *ast.ImportSpec:
			return false
		case *ast.BasicLit:
			if !props || skip[n] || n.Kind != token.STRING {
				break
			}
			if s, err := strconv.Unquote(n.Value); err == nil && idShaped.MatchString(s) && !notIDs[s] {
				add(used, s, path)
			}
		}
		return true
	})
}

// calledName is the name of the function or method a call expression
// calls, or "" for anything else (a func value returned by a call).
func calledName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

func addLit(used map[string][]string, e ast.Expr, path string) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		return
	}
	add(used, s, path)
}

func add(used map[string][]string, id, path string) {
	path = filepath.ToSlash(strings.TrimPrefix(path, "../"))
	for _, p := range used[id] {
		if p == path {
			return
		}
	}
	used[id] = append(used[id], path)
}
