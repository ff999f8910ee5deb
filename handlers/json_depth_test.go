package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// nestedArgs is an arguments object whose value nests depth levels in all.
func nestedArgs(depth int) string {
	return `{"a":` + strings.Repeat("[", depth-1) + "1" + strings.Repeat("]", depth-1) + `}`
}

// sqliteInvFixture is a fixture whose tool calls are stored in a real
// SQLite file, the store whose json_valid once turned deep arguments into
// a 500.
func sqliteInvFixture(t *testing.T) (*fixture, *domain.Invocations) {
	t.Helper()
	db, err := sqlite.Open(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	var svc *domain.Invocations
	f := newFixture(t, func(o *handlers.Options) {
		o.Scope = testScope
		svc = domain.NewInvocations(domain.InvocationsOptions{Caller: o.Fleet, Catalog: o.Fleet, Store: db.InvocationStore()})
		o.Invocations = svc
	})
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	sess := f.connect(t, stdio("demo"), domain.Capabilities{Tools: []domain.Tool{{Name: "echo", InputSchema: []byte(`{"type":"object"}`)}}})
	sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"ok"}]}`), nil
	})
	return f, svc
}

// TestDeepArgumentsAreBadArguments: L6. Arguments nested past
// MaxArgumentsDepth answer 400 bad_arguments, never 500, and nothing is
// stored; arguments just under the limit are stored and run.
func TestDeepArgumentsAreBadArguments(t *testing.T) {
	f, svc := sqliteInvFixture(t)
	inv := &invFixture{fixture: f, svc: svc}
	for _, depth := range []int{600, 1000, 9000} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			status, body := inv.post(t, handlers.ToolCallPath("demo", "echo"), nestedArgs(depth))
			e := wantError(t, status, body, http.StatusBadRequest, "bad_arguments")
			if !strings.Contains(e.Error.Message, fmt.Sprint(domain.MaxArgumentsDepth)) {
				t.Errorf("message: got %q, want it to name the limit %d", e.Error.Message, domain.MaxArgumentsDepth)
			}
		})
	}
	status, body := f.do(t, http.MethodGet, handlers.PathInvocations, nil)
	if list := decode[handlers.InvocationListDTO](t, body); status != http.StatusOK || len(list.Invocations) != 0 {
		t.Errorf("history after refused calls: got %d with %d calls, want 200 and none", status, len(list.Invocations))
	}

	sub := svc.Feed().Subscribe(testScope)
	defer sub.Close()
	status, body = inv.post(t, handlers.ToolCallPath("demo", "echo"), nestedArgs(domain.MaxArgumentsDepth))
	if status != http.StatusAccepted {
		t.Fatalf("arguments %d deep: got %d %s, want 202", domain.MaxArgumentsDepth, status, body)
	}
	inv.waitInvocation(t, sub, decode[handlers.InvocationDTO](t, body).ID, domain.InvocationSuccess)
}

// TestDeepRunFormArgumentsAreRefused: the run form refuses deep JSON in
// the raw editor and in a JSON field with its form and a localized reason,
// never a 500.
func TestDeepRunFormArgumentsAreRefused(t *testing.T) {
	f, calls := runFixture(t)
	path := handlers.RunFormPath("demo", "echo")
	for _, depth := range []int{600, 1000, 9000} {
		t.Run(fmt.Sprintf("raw-%d", depth), func(t *testing.T) {
			r := f.ui(t, http.MethodPost, path, url.Values{"mode": {"raw"}, "raw": {nestedArgs(depth)}}, "pt-BR")
			if r.status != http.StatusUnprocessableEntity {
				t.Fatalf("status: got %d, want 422; body %.300s", r.status, r.body)
			}
			if !strings.Contains(r.body, "objeto JSON") {
				t.Errorf("no Portuguese raw-JSON error in %.500s", r.body)
			}
		})
		t.Run(fmt.Sprintf("field-%d", depth), func(t *testing.T) {
			deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
			r := f.ui(t, http.MethodPost, path, url.Values{"arg.message": {"hi"}, "arg.filter": {`{"x":` + deep + `}`}}, "zh-Hans")
			if r.status != http.StatusUnprocessableEntity {
				t.Fatalf("status: got %d, want 422; body %.300s", r.status, r.body)
			}
			if want := fmt.Sprintf("此值的嵌套超过 %d 层。", domain.MaxArgumentsDepth-1); !strings.Contains(r.body, want) {
				t.Errorf("no %q in %.500s", want, r.body)
			}
		})
	}
	select {
	case args := <-calls:
		t.Errorf("a refused form called the tool with %.100s", args)
	default:
	}
}

// TestDeepSettingsPatchIsBadRequest: a PATCH body nested deeper than any
// limit is refused as a bad request by the decoder, never a 500.
func TestDeepSettingsPatchIsBadRequest(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("alpha"), domain.Capabilities{})
	for _, depth := range []int{600, 1000, 9000, 12000} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			body := `{"autoReconnect":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPatch,
				f.srv.URL+handlers.ServerPath(handlers.PathServerSettings, "alpha"), strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			resp, err := f.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			out, _ := io.ReadAll(resp.Body)
			wantError(t, resp.StatusCode, out, http.StatusBadRequest, "bad_request")
		})
	}
}
