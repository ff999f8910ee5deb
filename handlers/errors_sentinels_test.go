package handlers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// domainSentinels names every sentinel error of package domain. Go cannot
// look a package's variables up by name, so the list is written out; the
// test below reads domain/errors.go and fails when a sentinel is added
// there and not here, so the list cannot fall behind.
var domainSentinels = map[string]error{
	"ErrNotFound":               domain.ErrNotFound,
	"ErrRemoved":                domain.ErrRemoved,
	"ErrInvocationNotFound":     domain.ErrInvocationNotFound,
	"ErrToolNotFound":           domain.ErrToolNotFound,
	"ErrPromptNotFound":         domain.ErrPromptNotFound,
	"ErrElicitationNotFound":    domain.ErrElicitationNotFound,
	"ErrGatewaySessionNotFound": domain.ErrGatewaySessionNotFound,
	"ErrClientTokenNotFound":    domain.ErrClientTokenNotFound,
	"ErrServerDisabled":         domain.ErrServerDisabled,
	"ErrBlocked":                domain.ErrBlocked,
	"ErrNotConnected":           domain.ErrNotConnected,
	"ErrClosed":                 domain.ErrClosed,
	"ErrProcessExited":          domain.ErrProcessExited,
	"ErrInvalidSettings":        domain.ErrInvalidSettings,
	"ErrBadArguments":           domain.ErrBadArguments,
	"ErrDuplicateCall":          domain.ErrDuplicateCall,
	"ErrInvalidRequest":         domain.ErrInvalidRequest,
	"ErrNoAnswer":               domain.ErrNoAnswer,
	"ErrNoTasks":                domain.ErrNoTasks,
	"ErrTaskCancelled":          domain.ErrTaskCancelled,
	"ErrTaskFailed":             domain.ErrTaskFailed,
	"ErrCannotSubscribe":        domain.ErrCannotSubscribe,
	"ErrNotAsked":               domain.ErrNotAsked,
	"ErrDeniedByPolicy":         domain.ErrDeniedByPolicy,
	"ErrInvalidPolicy":          domain.ErrInvalidPolicy,
	"ErrNotAwaitingApproval":    domain.ErrNotAwaitingApproval,
	"ErrNothingToApprove":       domain.ErrNothingToApprove,
	"ErrFingerprintRequired":    domain.ErrFingerprintRequired,
	"ErrConfigChanged":          domain.ErrConfigChanged,
	"ErrBadElicitationAnswer":   domain.ErrBadElicitationAnswer,
	"ErrTooManyElicitations":    domain.ErrTooManyElicitations,
	"ErrNoSignIn":               domain.ErrNoSignIn,
	"ErrSignInUnknown":          domain.ErrSignInUnknown,
	"ErrSignInOtherServer":      domain.ErrSignInOtherServer,
	"ErrNeedsClientID":          domain.ErrNeedsClientID,
	"ErrClientTokenExists":      domain.ErrClientTokenExists,
	"ErrClientTokenName":        domain.ErrClientTokenName,
	"ErrNoClientConfig":         domain.ErrNoClientConfig,
	"ErrNoSettingsFile":         domain.ErrNoSettingsFile,
	"ErrNothingToUndo":          domain.ErrNothingToUndo,
}

// declaredSentinels lists the exported Err* variables domain/errors.go
// declares.
func declaredSentinels(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../domain/errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				if strings.HasPrefix(n.Name, "Err") && n.IsExported() {
					names = append(names, n.Name)
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

func TestSentinelListMatchesDomain(t *testing.T) {
	declared := declaredSentinels(t)
	var listed []string
	for name := range domainSentinels {
		listed = append(listed, name)
	}
	sort.Strings(listed)
	for _, name := range declared {
		if _, ok := domainSentinels[name]; !ok {
			t.Errorf("domain.%s is declared in domain/errors.go but missing from domainSentinels; add it there and to sentinelResponses", name)
		}
	}
	for _, name := range listed {
		if !slices.Contains(declared, name) {
			t.Errorf("domainSentinels lists %s, which domain/errors.go does not declare", name)
		}
	}
}

// TestEverySentinelHasItsOwnRow checks that each sentinel is mapped on
// purpose, not by luck of wrapping another.
func TestEverySentinelHasItsOwnRow(t *testing.T) {
	for name, sentinel := range domainSentinels {
		rows := 0
		for _, r := range sentinelResponses {
			if r.err == sentinel {
				rows++
				if r.code == "" || r.status == 0 {
					t.Errorf("%s: row without a status or code: %+v", name, r)
				}
			}
		}
		if rows != 1 {
			t.Errorf("%s has %d rows in sentinelResponses, want 1", name, rows)
		}
	}
}

func TestEverySentinelAnswersClearly(t *testing.T) {
	for name, sentinel := range domainSentinels {
		t.Run(name, func(t *testing.T) {
			p := classify(fmt.Errorf("doing something: %w", sentinel))
			if p.code == "internal" || p.message == internalMessage {
				t.Fatalf("%s falls through to the generic internal error: %+v", name, p)
			}
			if p.status >= http.StatusInternalServerError && p.status != http.StatusBadGateway &&
				p.status != http.StatusServiceUnavailable && p.status != http.StatusGatewayTimeout {
				t.Errorf("%s answers %d; a 5xx must be a deliberate upstream or shutdown status", name, p.status)
			}
			if strings.TrimSpace(p.message) == "" {
				t.Errorf("%s answers an empty message", name)
			}
		})
	}
}
