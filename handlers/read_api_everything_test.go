package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

const everythingEntry = "../e2e/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

// everythingFixture serves the handlers over a fleet that runs npm's
// server-everything as a real subprocess through the real MCP client, and
// waits until it is connected. Without the package or node the test fails
// on CI and is skipped elsewhere.
func everythingFixture(t *testing.T) *fixture {
	t.Helper()
	entry, err := filepath.Abs(everythingEntry)
	if err == nil {
		_, err = os.Stat(entry)
	}
	if err == nil {
		_, err = exec.LookPath("node")
	}
	if err != nil {
		msg := "server-everything is not installed (run npm ci in e2e/) or node is missing: " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	f := &fixture{logs: &logBuffer{}, done: make(chan struct{})}
	// The real clock: connectedAt must change if the server reconnects.
	f.fleet = domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: mcpclient.New(mcpclient.Options{}),
		Store:     domaintest.NewStore(),
		Scope:     domain.Scope{User: domain.LocalUser, Workspace: "test"},
		Rand:      func() float64 { return 0 },
	}})
	f.echo = handlers.New(handlers.Options{Fleet: f.fleet, Log: f.logs.logger(), Heartbeat: time.Hour, Done: f.done, Token: fixtureToken})
	f.srv = httptest.NewServer(f.echo)
	client := f.srv.Client()
	client.Transport = withToken{next: client.Transport}
	t.Cleanup(func() {
		f.shutdown()
		f.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		if err := f.fleet.Close(ctx); err != nil {
			t.Errorf("close fleet: %v", err)
		}
	})
	cfg := domain.ServerConfig{Name: "everything", Transport: domain.TransportStdio, Command: "node",
		Args: []string{entry, "stdio"}, ConnectTimeout: patience, StartTimeout: patience}
	f.attach(t, cfg)
	waitFor(t, f.fleet.Hub(), "everything", "connected", func(s domain.Status) bool { return s.State == domain.StateConnected })
	return f
}

// connectedAt is when the server's current session began, as the API says.
func connectedAt(t *testing.T, f *fixture, server string) int64 {
	t.Helper()
	status, body := f.do(t, http.MethodGet, handlers.ServerPath(handlers.PathServer, server), nil)
	st := decode[struct {
		State       string `json:"state"`
		ConnectedAt *int64 `json:"connectedAt"`
	}](t, body)
	if status != http.StatusOK || st.State != "connected" || st.ConnectedAt == nil {
		t.Fatalf("status of %s: got %d %s, want connected", server, status, body)
	}
	return *st.ConnectedAt
}

func TestReadAPIEverything(t *testing.T) {
	f := everythingFixture(t)
	since := connectedAt(t, f, "everything")

	t.Run("read-resource", func(t *testing.T) {
		const uri = "demo://resource/dynamic/text/1"
		status, body := f.do(t, http.MethodGet, handlers.ResourceReadPath("everything", uri), nil)
		if status != http.StatusOK {
			t.Fatalf("status: got %d %s, want 200", status, body)
		}
		res := decode[struct {
			Contents []struct{ URI, MimeType, Text string }
		}](t, body)
		if len(res.Contents) != 1 || res.Contents[0].URI != uri || !strings.HasPrefix(res.Contents[0].Text, "Resource 1:") {
			t.Errorf("contents: got %+v, want the text of resource 1", res.Contents)
		}
	})

	t.Run("read-unknown-uri-is-the-servers-refusal", func(t *testing.T) {
		status, body := f.do(t, http.MethodGet, handlers.ResourceReadPath("everything", "demo://no/such/thing"), nil)
		e := wantError(t, status, body, http.StatusBadGateway, "server_error")
		if !strings.Contains(e.Error.Message, "demo://no/such/thing") {
			t.Errorf("message %q does not carry the server's words about the URI", e.Error.Message)
		}
	})

	t.Run("get-prompt-with-arguments", func(t *testing.T) {
		status, body := f.postJSON(t, handlers.PromptGetPath("everything", "args-prompt"), `{"arguments": {"city": "Lisbon", "state": "Lisboa"}}`)
		if status != http.StatusOK {
			t.Fatalf("status: got %d %s, want 200", status, body)
		}
		res := decode[struct {
			Messages []struct {
				Role    string
				Content struct{ Type, Text string }
			}
		}](t, body)
		if len(res.Messages) != 1 || res.Messages[0].Role != "user" || res.Messages[0].Content.Text != "What's weather in Lisbon, Lisboa?" {
			t.Errorf("messages: got %+v, want the weather question for Lisbon, Lisboa", res.Messages)
		}
	})

	t.Run("get-prompt-without-a-required-argument-is-the-servers-refusal", func(t *testing.T) {
		status, body := f.postJSON(t, handlers.PromptGetPath("everything", "args-prompt"), ``)
		wantError(t, status, body, http.StatusBadGateway, "server_error")
	})

	t.Run("get-unknown-prompt", func(t *testing.T) {
		status, body := f.postJSON(t, handlers.PromptGetPath("everything", "no-such-prompt"), `{}`)
		e := wantError(t, status, body, http.StatusNotFound, "not_found")
		if want := `prompt "no-such-prompt" not found on server "everything"`; e.Error.Message != want {
			t.Errorf("message: got %q, want %q", e.Error.Message, want)
		}
	})

	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"complete-prompt-argument", `{"ref": {"type": "ref/prompt", "name": "completable-prompt"}, "argument": {"name": "department", "value": "S"}}`,
			[]string{"Sales", "Support"}},
		{"complete-prompt-argument-in-context", `{"ref": {"type": "ref/prompt", "name": "completable-prompt"}, "argument": {"name": "name", "value": ""}, "context": {"arguments": {"department": "Sales"}}}`,
			[]string{"David", "Eve", "Frank"}},
		{"complete-resource-template-argument", `{"ref": {"type": "ref/resource", "uri": "demo://resource/dynamic/text/{resourceId}"}, "argument": {"name": "resourceId", "value": "7"}}`,
			[]string{"7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := f.postJSON(t, handlers.ServerPath(handlers.PathComplete, "everything"), tc.body)
			if status != http.StatusOK {
				t.Fatalf("status: got %d %s, want 200", status, body)
			}
			var res struct {
				Completion struct{ Values []string }
			}
			if err := json.Unmarshal(body, &res); err != nil {
				t.Fatalf("decode %s: %v", body, err)
			}
			if !reflect.DeepEqual(res.Completion.Values, tc.want) {
				t.Errorf("values: got %q, want %q", res.Completion.Values, tc.want)
			}
		})
	}

	if got := connectedAt(t, f, "everything"); got != since {
		t.Errorf("connectedAt: got %d, want %d (refused requests must leave the session up)", got, since)
	}
}
