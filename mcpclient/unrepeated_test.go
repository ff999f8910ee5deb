package mcpclient_test

import (
	"encoding/json"
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// repeatedPhrase returns the first wrapping phrase said twice in a row
// ("x: x: "), or "".
func repeatedPhrase(msg string) string {
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts); i++ {
		if parts[i] == parts[i-1] {
			return parts[i]
		}
	}
	return ""
}

// mcp-go wraps a failed HTTP request in "failed to send request" twice;
// people read each phrase once, and programs still find the cause.
func TestRefusedConnectSaysEachPhraseOnce(t *testing.T) {
	t.Parallel()
	url := "http://127.0.0.1:" + freePort(t) + "/mcp"
	ce := connectErr(t, mcpclient.New(mcpclient.Options{}), remote(domain.TransportHTTP, url), nil)
	if p := repeatedPhrase(ce.Error()); p != "" {
		t.Errorf("Connect error %q says %q twice", ce.Error(), p)
	}
	if !strings.Contains(ce.Error(), "failed to send request: ") {
		t.Errorf("Connect error %q lost mcp-go's phrase", ce.Error())
	}
	if !errors.Is(ce, syscall.ECONNREFUSED) || ce.Category != domain.CategoryRefused {
		t.Errorf("Connect error %q (%s): got no ECONNREFUSED or category refused", ce.Error(), ce.Category)
	}
}

func TestCallToGoneServerSaysEachPhraseOnce(t *testing.T) {
	t.Parallel()
	p, url := startFixtureHTTP(t, "127.0.0.1:0")
	s := connect(t, mcpclient.New(mcpclient.Options{}), remote(domain.TransportHTTP, url), nil)
	p.kill()
	_, err := s.CallTool(connectCtx(t), "echo", json.RawMessage(`{}`), nil)
	if err == nil {
		t.Fatal("CallTool to a stopped server succeeded")
	}
	if p := repeatedPhrase(err.Error()); p != "" {
		t.Errorf("CallTool error %q says %q twice", err.Error(), p)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("CallTool error %q: errors.Is(ECONNREFUSED) = false, want true", err.Error())
	}
}
