package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// The Run form and the JSON API judge a call by the same domain rules
// (Invocations.Runnable): for a disconnected server and for an unknown
// tool both answer the same status and code, the API as JSON and the form
// as a toast that words it for a person. Before, the form refused a
// disconnected server itself while the API recorded a failed call.
func TestRunFormAndAPIAgree(t *testing.T) {
	tests := []struct {
		name    string
		lose    bool
		tool    string
		status  int
		code    string
		toast   string
		message string
	}{
		{"disconnected", true, "echo", http.StatusConflict, "not_connected", "is not connected", `server "demo" is reconnecting`},
		{"unknown-tool", false, "nope", http.StatusNotFound, "not_found", "no longer offers", `tool "nope" not found on server "demo"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, sess, calls := runFixtureSession(t)
			if tt.lose {
				// Lost and waiting to retry: the fixture's fake clock
				// never fires the retry.
				sess.Lose(&domain.ConnError{Category: domain.CategoryExited, ExitCode: 1, Err: domain.ErrProcessExited})
				waitFor(t, f.fleet.Hub(), "demo", "waiting", func(s domain.Status) bool { return s.Phase == domain.PhaseWaiting })
			}
			status, body := f.postJSON(t, handlers.ToolCallPath("demo", tt.tool), `{"message":"x"}`)
			e := wantError(t, status, body, tt.status, tt.code)
			if got := e.Error.Message; len(got) < len(tt.message) || got[:len(tt.message)] != tt.message {
				t.Errorf("API message: got %q, want it to start %q", got, tt.message)
			}
			r := f.ui(t, http.MethodGet, handlers.RunFormPath("demo", tt.tool), nil, "en")
			wantToast(t, r, tt.status, tt.code, tt.toast)
			r = f.ui(t, http.MethodPost, handlers.RunFormPath("demo", tt.tool), url.Values{"arg.message": {"x"}}, "en")
			wantToast(t, r, tt.status, tt.code, tt.toast)
			select {
			case args := <-calls:
				t.Errorf("a call reached the server: %s", args)
			default:
			}
		})
	}
}
