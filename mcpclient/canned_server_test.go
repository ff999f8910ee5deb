package mcpclient_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// The canned server answers every request with fixed JSON written by hand,
// so the tests can check that Switchboard passes on exactly what a server
// sent: fields mcp-go does not know, fields it would fill with "", a
// content type it cannot decode. It speaks JSON-RPC line by line over
// stdio (runCanned, in a subprocess) or plain-JSON streamable HTTP
// (startCannedHTTP).

// cannedTools are the two pages of the canned tools/list, each tool as
// the server sends it.
var cannedTools = []string{
	`{"name":"rich","title":"Rich","description":"Every field a tool can have.","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"q":{"type":"string","default":"x"}},"additionalProperties":false},"outputSchema":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]},"annotations":{"readOnlyHint":true},"execution":{"taskSupport":"optional"},"icons":[{"src":"https://example.com/rich.png","mimeType":"image/png","sizes":["48x48"]}],"_meta":{"vendor/key":{"nested":[1,2]}},"x-unknown":true}`,
	`{"name":"plain","inputSchema":{"type":"object"}}`,
}

// cannedCallResult is the tools/call result: a resource_link without a
// description, annotations without a title, an unknown content type and
// an unknown top-level field.
const cannedCallResult = `{"content":[{"type":"resource_link","uri":"canned://a","name":"a"},{"type":"text","text":"hi","annotations":{"audience":["user"]}},{"type":"hologram","shape":"cube"}],"structuredContent":{"n":12345678901234567890},"extension":{"kept":true}}`

// cannedReadResult is the resources/read result, with _meta and an unknown
// field on the contents.
const cannedReadResult = `{"contents":[{"uri":"canned://a","text":"A","_meta":{"m":1},"x-extra":"kept"}]}`

// cannedResource, cannedTemplate and cannedPrompt are the single entries
// of the other lists, with fields mcp-go does not keep.
const (
	cannedResource = `{"uri":"canned://a","name":"a","icons":[{"src":"https://example.com/a.png"}],"annotations":{"audience":["user"],"lastModified":"2026-11-30T09:00:00Z"},"_meta":{"k":"v"},"x-unknown":1}`
	cannedTemplate = `{"uriTemplate":"canned://{id}","name":"by-id","_meta":{"k":"v"},"x-unknown":2}`
	cannedPrompt   = `{"name":"greet","arguments":[{"name":"who","title":"Who","required":true}],"icons":[{"src":"https://example.com/p.png"}],"_meta":{"k":"v"}}`
)

func cannedResult(method string) (json.RawMessage, bool) {
	switch method {
	case "initialize":
		return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"resources":{},"prompts":{}},"serverInfo":{"name":"canned","version":"1"}}`), true
	case "resources/list":
		return json.RawMessage(`{"resources":[` + cannedResource + `]}`), true
	case "resources/templates/list":
		return json.RawMessage(`{"resourceTemplates":[` + cannedTemplate + `]}`), true
	case "prompts/list":
		return json.RawMessage(`{"prompts":[` + cannedPrompt + `]}`), true
	case "ping":
		return json.RawMessage(`{}`), true
	case "tools/call":
		return json.RawMessage(cannedCallResult), true
	case "resources/read":
		return json.RawMessage(cannedReadResult), true
	}
	return nil, false
}

// cannedAnswer is the response to one message, or nil for a notification.
func cannedAnswer(line []byte) []byte {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Cursor string `json:"cursor"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.ID == nil || msg.Method == "" {
		return nil
	}
	res, ok := cannedResult(msg.Method)
	if msg.Method == "tools/list" {
		ok = true
		if msg.Params.Cursor == "" {
			res = json.RawMessage(`{"tools":[` + cannedTools[0] + `],"nextCursor":"page-2"}`)
		} else {
			res = json.RawMessage(`{"tools":[` + cannedTools[1] + `]}`)
		}
	}
	if !ok {
		return []byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
	}
	return []byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":` + string(res) + `}`)
}

// runCanned serves the canned answers over stdio.
func runCanned(ctx context.Context) error {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for in.Scan() {
		if out := cannedAnswer(in.Bytes()); out != nil {
			if _, err := os.Stdout.Write(append(out, '\n')); err != nil {
				return err
			}
		}
	}
	return in.Err()
}

func cannedStdio() domain.ServerConfig {
	return domain.ServerConfig{
		Name:      "canned",
		Transport: domain.TransportStdio,
		Command:   os.Args[0],
		Env:       map[string]string{serverModeEnv: "canned"},
	}
}

// startCannedHTTP serves the canned answers as a streamable HTTP server
// that answers every POST with plain JSON and offers no GET stream.
func startCannedHTTP(t *testing.T) domain.ServerConfig {
	t.Helper()
	var mu sync.Mutex // serializes answers, as a stdio server would
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		mu.Lock()
		out := cannedAnswer(body)
		mu.Unlock()
		if out == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return domain.ServerConfig{Name: "canned-http", Transport: domain.TransportHTTP, URL: srv.URL + "/mcp"}
}
