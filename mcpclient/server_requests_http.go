package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// answerSendTimeout bounds sending one answer to a streamable HTTP server,
// once it is known: the POST itself, never the wait for the answer.
const answerSendTimeout = 30 * time.Second

// answerPoster sends the answers to a streamable HTTP server's requests
// itself. mcp-go's transport runs the request handler, and sends its
// answer, under a context it cuts off 30 seconds after the request came
// (handleIncomingRequest in client/transport/streamable_http.go), which
// would cut short a person filling in a form or a client's model; so the
// handler returns no response, which mcp-go does not send, and the answer
// goes out here instead, built as mcp-go builds its own POSTs, through the
// same *http.Client.
type answerPoster struct {
	url     string
	hc      *http.Client
	headers map[string]string
	tr      *transport.StreamableHTTP
	ctx     context.Context // the session's: ends when it closes
	log     *slog.Logger
	version atomic.Value // string: the negotiated protocol version
}

// post sends resp to the server and logs, rather than returns, a failure:
// nobody waits on it but the server, which sees no answer.
func (p *answerPoster) post(resp *transport.JSONRPCResponse) {
	body, err := json.Marshal(resp)
	if err != nil {
		p.log.Warn("encode an answer to the server", "error", err)
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, answerSendTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		p.log.Warn("build an answer to the server", "error", err)
		return
	}
	version, _ := p.version.Load().(string)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id := p.tr.GetSessionId(); id != "" && !mcp.IsModernProtocol(version) {
		req.Header.Set(transport.HeaderKeySessionID, id)
	}
	if version != "" {
		req.Header.Set(transport.HeaderKeyProtocolVersion, version)
	}
	for k, v := range p.headers {
		req.Header.Set(k, v)
	}
	res, err := p.hc.Do(req)
	if err != nil {
		p.log.Warn("send an answer to the server", "error", err)
		return
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, maxErrorBody))
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusAccepted {
		p.log.Warn("the server refused an answer", "status", res.StatusCode)
	}
}
