package handlers_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

func TestUpdateSettings(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("alpha"), domain.Capabilities{})
	path := handlers.ServerPath(handlers.PathServerSettings, "alpha")
	patch := func(body string) (int, []byte) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPatch, f.srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var buf strings.Builder
		_, _ = io.Copy(&buf, resp.Body)
		return resp.StatusCode, []byte(buf.String())
	}
	status, body := patch(`{"autoReconnect": false, "keepAliveSeconds": 5}`)
	if status != http.StatusOK {
		t.Fatalf("PATCH: %d %s", status, body)
	}
	st := decode[handlers.StatusDTO](t, body)
	if st.AutoReconnect || st.KeepAliveSeconds != 5 || st.State != "connected" {
		t.Errorf("after PATCH: auto %v keepAlive %v state %s; want false, 5, still connected", st.AutoReconnect, st.KeepAliveSeconds, st.State)
	}
	for _, bad := range []string{`{"keepAliveSeconds": -1}`, `{"keepAliveSeconds": 0.5}`, `{"keepAliveSeconds": 99999}`,
		`{"keepAliveSeconds": 4}`, `{"keepAliveSeconds": 1e-300}`, `{"keepAliveSeconds": 0.001}`, `{"keepAliveSeconds": 1e12}`} {
		status, body := patch(bad)
		wantError(t, status, body, http.StatusUnprocessableEntity, "invalid_settings")
	}
	status, body = patch(`{"colour": "red"}`)
	wantError(t, status, body, http.StatusBadRequest, "bad_request")
}
