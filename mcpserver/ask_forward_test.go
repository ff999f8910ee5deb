package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// The params a server's requests carry, as its bytes went on the wire:
// keys out of alphabetical order, numbers too large for a float64, and
// fields no type of mcp-go's models.
const (
	oddElicitParams = `{"message":"Pick a size <in cm> & go","requestedSchema":{"type":"object","properties":{"size":{"type":"integer","maximum":12345678901234567890,"default":12345678901234567890},"colour":{"type":"string","title":"Colour"}},"required":["size"]},"x-vendor":{"zeta":1,"alpha":2},"_meta":{"zeta":"z","alpha":12345678901234567891}}`
	oddSampleParams = `{"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}}],"maxTokens":20,"x-vendor":7,"metadata":{"b":1,"a":12345678901234567890}}`
)

// rawAskingServer is a stdio MCP server written against the wire, not a
// library, so the bytes of its requests are its own: its tool "ask" sends
// an elicitation, then a sampling request, and answers the call with the
// two answers it got.
const rawAskingServer = `
const readline = require('readline');
const ELICIT = process.argv[2], SAMPLE = process.argv[3];
const send = (s) => process.stdout.write(s + '\n');
let call = null, answers = [];
readline.createInterface({input: process.stdin}).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === undefined) {
    answers.push(JSON.stringify(m.result || m.error));
    if (m.id === 'up-elicit') {
      send('{"jsonrpc":"2.0","id":"up-sample","method":"sampling/createMessage","params":' + SAMPLE + '}');
    } else {
      send(JSON.stringify({jsonrpc: '2.0', id: call, result: {content: [{type: 'text', text: answers.join('\n')}]}}));
    }
    return;
  }
  if (m.id === undefined) return;
  const reply = (result) => send(JSON.stringify({jsonrpc: '2.0', id: m.id, result}));
  switch (m.method) {
  case 'initialize':
    return reply({protocolVersion: '2025-11-25', capabilities: {tools: {}}, serverInfo: {name: 'raw', version: '1'}});
  case 'ping':
    return reply({});
  case 'tools/list':
    return reply({tools: [{name: 'ask', inputSchema: {type: 'object'}}]});
  case 'tools/call':
    call = m.id; answers = [];
    return send('{"jsonrpc":"2.0","id":"up-elicit","method":"elicitation/create","params":' + ELICIT + '}');
  default:
    send(JSON.stringify({jsonrpc: '2.0', id: m.id, error: {code: -32601, message: 'no ' + m.method}}));
  }
});
`

// rawAsking returns the config of rawAskingServer; without node the test
// fails on CI and is skipped elsewhere.
func rawAsking(t *testing.T) domain.ServerConfig {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip("node is missing: " + err.Error())
	}
	script := filepath.Join(t.TempDir(), "raw_asking.js")
	if err := os.WriteFile(script, []byte(rawAskingServer), 0o600); err != nil {
		t.Fatal(err)
	}
	return domain.ServerConfig{Name: "raw", Transport: domain.TransportStdio, Command: "node",
		Args: []string{script, oddElicitParams, oddSampleParams}, ConnectTimeout: time.Minute}
}

// wire keeps every byte the gateway sends a client, streams included.
type wire struct {
	mu  sync.Mutex // guards got
	got bytes.Buffer
}

func (w *wire) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return res, err
	}
	res.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(res.Body, w), res.Body}
	return res, nil
}

func (w *wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.got.Write(p)
}

// params are the params of every request of method the client received,
// as bytes: on its own (an SSE event or a body) or inside an
// input_required result's inputRequests.
func (w *wire) params(t *testing.T, method string) []string {
	t.Helper()
	w.mu.Lock()
	text := w.got.String()
	w.mu.Unlock()
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "data: ")
		var msg struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result struct {
				InputRequests map[string]struct {
					Method string          `json:"method"`
					Params json.RawMessage `json:"params"`
				} `json:"inputRequests"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &msg) != nil {
			continue
		}
		if msg.Method == method {
			out = append(out, string(msg.Params))
		}
		for _, r := range msg.Result.InputRequests {
			if r.Method == method {
				out = append(out, string(r.Params))
			}
		}
	}
	return out
}

// TestForwardedRequestsKeepTheServersBytes: a real server's elicitation
// and sampling requests, with keys out of order, numbers no float64
// holds and fields mcp-go does not model, reach a client of the gateway
// with the server's bytes, in both eras: as requests on a legacy
// session, and in a 2026-07-28 client's input_required rounds.
func TestForwardedRequestsKeepTheServersBytes(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			f := realFixture(t, rawAsking(t))
			w := &wire{}
			a := &answerer{name: "claude"}
			c := dialAnswering(t, f.srv.URL+"/mcp/raw", "", era.legacy, a, &http.Client{Transport: w})

			text, isErr := callText(t, c, "ask", nil)
			if isErr || !strings.Contains(text, `"by":"claude"`) || !strings.Contains(text, `"model":"model-of-claude"`) {
				t.Fatalf("call: got %q (error %v), want the client's two answers", text, isErr)
			}
			for method, want := range map[string]string{domain.MethodElicit: oddElicitParams, domain.MethodSample: oddSampleParams} {
				got := w.params(t, method)
				if len(got) != 1 || got[0] != want {
					t.Errorf("%s params the client received:\n got %q\nwant [%q]", method, got, want)
				}
			}
			a.mu.Lock()
			defer a.mu.Unlock()
			if len(a.elicits) != 1 || a.elicits[0].Message != "Pick a size <in cm> & go" || a.samples != 1 {
				t.Errorf("client was asked %+v and %d samples, want each once", a.elicits, a.samples)
			}
		})
	}
}
