package handlers_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// The API fills defaults, refuses what still breaks the schema naming
// every violation, and sends it anyway when asked with validate=false.
func TestToolCallAPIValidation(t *testing.T) {
	f, svc, calls := shotFixture(t)
	path := handlers.ToolCallPath("demo", "shot")

	status, body := f.postJSON(t, path, `{}`)
	if status != http.StatusAccepted {
		t.Fatalf("{}: got %d, want 202; body %s", status, body)
	}
	if inv := decode[handlers.InvocationDTO](t, body); string(inv.Arguments) != `{"scale":"css"}` ||
		!reflect.DeepEqual(inv.Defaults, []string{"/scale"}) {
		t.Errorf("{}: arguments %s defaults %q, want scale filled and marked", inv.Arguments, inv.Defaults)
	}
	if got := <-calls; string(got) != `{"scale":"css"}` {
		t.Errorf("{}: sent %s", got)
	}

	bad := `{"thoughtNumber":"2","scale":"huge"}`
	status, body = f.postJSON(t, path, bad)
	e := wantError(t, status, body, http.StatusUnprocessableEntity, "invalid_arguments")
	var where []string
	for _, v := range e.Error.Violations {
		where = append(where, v.Pointer)
		if !strings.Contains(e.Error.Message, v.Pointer+": ") {
			t.Errorf("message %q does not name the violation at %s", e.Error.Message, v.Pointer)
		}
	}
	if len(where) != 2 {
		t.Errorf("violations at %q, want /scale and /thoughtNumber", where)
	}

	sub := svc.Feed().Subscribe(testScope)
	defer sub.Close()
	status, body = f.postJSON(t, path+"?validate=false", bad)
	if status != http.StatusAccepted {
		t.Fatalf("validate=false: got %d, want 202; body %s", status, body)
	}
	inv := decode[handlers.InvocationDTO](t, body)
	if len(inv.Mismatch) != 2 || string(inv.Arguments) != bad {
		t.Errorf("validate=false: arguments %s mismatch %+v, want sent as given with both violations", inv.Arguments, inv.Mismatch)
	}
	if got := <-calls; string(got) != bad {
		t.Errorf("validate=false: sent %s, want %s", got, bad)
	}
	waitFeed(t, sub, inv.ID)

	status, body = f.postJSON(t, path+"?validate=maybe", `{}`)
	wantError(t, status, body, http.StatusBadRequest, "bad_request")
}
