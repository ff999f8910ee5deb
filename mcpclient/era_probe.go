package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// errNotModern stops mcp-go's own fallback from server/discover to
// initialize on a streamable HTTP transport opened for 2026-07-28: a
// handshake session needs the standalone GET stream, which that transport
// does not open, so the connector starts over with one that does.
var errNotModern = errors.New("the server did not take a 2026-07-28 request")

// modernProbe is the transport of an attempt at 2026-07-28 over streamable
// HTTP. It keeps how the server answered server/discover, which decides
// whether the handshake is worth trying.
type modernProbe struct {
	rawStreamableHTTP

	mu   sync.Mutex // guards resp and err
	resp *transport.JSONRPCResponse
	err  error
}

func (p *modernProbe) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method == string(mcp.MethodInitialize) {
		return nil, errNotModern
	}
	resp, err := p.rawStreamableHTTP.SendRequest(ctx, req)
	if req.Method == string(mcp.MethodServerDiscover) {
		p.mu.Lock()
		p.resp, p.err = resp, err
		p.mu.Unlock()
	}
	return resp, err
}

// refused reports whether the server's answer to server/discover says it
// does not speak 2026-07-28, so that the handshake may work: an HTTP 4xx,
// a JSON-RPC error other than an unsupported version, an unsupported
// version naming a handshake revision among the supported ones (mcp-go
// has already followed one naming a newer stateless revision), or an
// answer that is no JSON-RPC response at all. A refusal of credentials
// (401, 403), a server error (5xx), a lost connection (lost) or no answer
// in time would fail the handshake too and is reported as it is.
func (p *modernProbe) refused(status int, lost bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return false
	case status >= http.StatusInternalServerError, lost:
		return false
	case p.resp != nil && p.resp.Error != nil:
		if p.resp.Error.Code != mcp.UNSUPPORTED_PROTOCOL_VERSION {
			return true
		}
		supported, _ := supportedVersions(p.resp.Error)
		return speaksHandshake(supported)
	case p.err != nil:
		var unsupported mcp.UnsupportedProtocolVersionError
		if errors.As(p.err, &unsupported) {
			return speaksHandshake(unsupported.Supported)
		}
		// Over HTTP a server of either era answers a POST; one that did
		// not within the bound is slow or stuck, which the handshake
		// would not cure, and its refusal of initialize would then read
		// as a configuration error, never retried.
		return !timedOut(p.err)
	}
	return false
}

// timedOut reports whether err is a request that ran out of time.
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// speaksHandshake reports whether a server that named the versions it
// supports in an unsupported-version error takes one of the handshake era
// that Switchboard speaks too.
func speaksHandshake(supported []string) bool {
	for _, v := range supported {
		if mcp.IsValidProtocolVersion(v) && !mcp.IsModernProtocol(v) {
			return true
		}
	}
	return false
}

// legacyRefused reports whether a failed handshake says the server takes
// only 2026-07-28: an HTTP 4xx other than a refusal of credentials (mcp-go
// makes any of them ErrLegacySSEServer), or an unsupported-version error.
func legacyRefused(status int, err error) bool {
	if mcp.IsUnsupportedProtocolVersion(err) {
		return true
	}
	return status >= http.StatusBadRequest && status < http.StatusInternalServerError &&
		status != http.StatusUnauthorized && status != http.StatusForbidden
}

// lastStatus is the last HTTP status of 400 or more recorded, or 0.
func (e *exchange) lastStatus() int {
	if e == nil {
		return 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.status
}

// failure is what to report when the 2026-07-28 attempt failed with err:
// mcp-go falls back to initialize, which modernProbe refuses with
// errNotModern, hiding why server/discover failed, which is what matters.
func (p *modernProbe) failure(err error) error {
	if !errors.Is(err, errNotModern) {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.err != nil:
		return fmt.Errorf("server/discover: %w", p.err)
	case p.resp != nil && p.resp.Error != nil:
		if supported, ok := supportedVersions(p.resp.Error); ok {
			return fmt.Errorf("server/discover: %w",
				mcp.UnsupportedProtocolVersionError{Version: mcp.LATEST_PROTOCOL_VERSION, Supported: supported})
		}
		return fmt.Errorf("server/discover: %s (code %d)", p.resp.Error.Message, p.resp.Error.Code)
	}
	return err
}

// supportedVersions reads the versions an unsupported-version error says
// the server takes.
func supportedVersions(e *mcp.JSONRPCErrorDetails) ([]string, bool) {
	if e.Code != mcp.UNSUPPORTED_PROTOCOL_VERSION {
		return nil, false
	}
	var data mcp.UnsupportedProtocolVersionData
	b, err := json.Marshal(e.Data)
	if err != nil || json.Unmarshal(b, &data) != nil || len(data.Supported) == 0 {
		return nil, false
	}
	return data.Supported, true
}
