//go:build unix

package mcpclient_test

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
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
	url := "http://127.0.0.1:" + refusingPort(t) + "/mcp"
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
	// The first request after the kill may reuse the kept-alive
	// connection (EOF, reset) or dial anew (refused): whichever, the cause
	// is still there for errors.Is under the shortened message.
	if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("CallTool error %q: errors.Is finds no refused, reset or EOF cause", err.Error())
	}
}

// refusingPort returns a loopback port that refuses connections for the
// whole test: a socket bound to it but never listening holds it, so no
// other test can take it the way a closed listener's port can be taken.
func refusingPort(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.Itoa(sa.(*syscall.SockaddrInet4).Port)
}
