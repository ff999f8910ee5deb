package mcpclient_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// sentRequest is one request as a stdio server read it.
type sentRequest struct {
	ID     json.Number `json:"id"`
	Method string      `json:"method"`
	Params struct {
		Name      string                     `json:"name"`
		Arguments json.RawMessage            `json:"arguments"`
		Meta      map[string]json.RawMessage `json:"_meta"`
	} `json:"params"`
}

// teeDemo is the demo server over stdio with everything Switchboard
// writes to it copied to the file it returns.
func teeDemo(t *testing.T) (domain.ServerConfig, string) {
	log := filepath.Join(t.TempDir(), "stdin.log")
	cfg := demoStdio()
	cfg.Command, cfg.Args = "sh", []string{"-c", `tee "$STDIN_LOG" | exec "$0"`, os.Args[0]}
	cfg.Env = map[string]string{serverModeEnv: "demo", "STDIN_LOG": log}
	return cfg, log
}

func readSent(t *testing.T, path string) []sentRequest {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []sentRequest
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r sentRequest
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.ID != "" {
			out = append(out, r)
		}
	}
	return out
}

// A stdio call carries exactly the _meta mcp-go puts in the session's
// other requests (on 2026-07-28 the protocol version, client info and
// capabilities, and the log level once one is set; nothing on the
// handshake era) plus its progress token, and the caller's arguments as
// they came, with the integers that JSON numbers cannot hold exactly in a
// float kept as written.
func TestStdioCallsCarryTheSessionsMeta(t *testing.T) {
	t.Parallel()
	for _, version := range []string{mcp.ProtocolVersion20260728, mcp.ProtocolVersion20251125} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			cfg, log := teeDemo(t)
			s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: version}), cfg, nil)
			if got := s.ProtocolVersion(); got != version {
				t.Fatalf("ProtocolVersion() = %q, want %q", got, version)
			}
			loadAll(t, s)
			args := json.RawMessage(`{"message":"héllo <&>","n":12345678901234567890}`)
			call := func(progress func(domain.Progress)) {
				t.Helper()
				if _, err := s.CallTool(connectCtx(t), "echo", args, progress); err != nil {
					t.Fatalf("CallTool: %v", err)
				}
			}
			call(nil)
			call(func(domain.Progress) {})
			leveler := s.(domain.LogLeveler)
			if err := leveler.SetLogLevel(connectCtx(t), "warning"); err != nil {
				t.Fatalf("SetLogLevel: %v", err)
			}
			call(nil)
			call(nil)

			var listMeta map[string]json.RawMessage
			var calls []sentRequest
			for _, r := range readSent(t, log) {
				switch r.Method {
				case string(mcp.MethodToolsList):
					listMeta = r.Params.Meta
				case string(mcp.MethodToolsCall):
					calls = append(calls, r)
				}
			}
			if len(calls) != 4 {
				t.Fatalf("the server read %d calls, want 4", len(calls))
			}
			modern := version == mcp.ProtocolVersion20260728
			for i, c := range calls {
				if !sameJSON(c.Params.Arguments, args) {
					t.Errorf("call %d arguments %s, want %s", i, c.Params.Arguments, args)
				}
				_, hasToken := c.Params.Meta["progressToken"]
				if hasToken != (i == 1) {
					t.Errorf("call %d has a progress token: %v, want %v", i, hasToken, i == 1)
				}
				delete(c.Params.Meta, "progressToken")
				level := c.Params.Meta[mcp.MetaKeyLogLevel]
				delete(c.Params.Meta, mcp.MetaKeyLogLevel)
				if !modern {
					if len(c.Params.Meta) != 0 || level != nil {
						t.Errorf("call %d _meta %v on the handshake era, want only the progress token", i, c.Params.Meta)
					}
					continue
				}
				if wantLevel := i >= 2; (string(level) == `"warning"`) != wantLevel {
					t.Errorf("call %d log level %s, want it set: %v", i, level, wantLevel)
				}
				for _, k := range []string{mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities} {
					if c.Params.Meta[k] == nil || !sameJSON(c.Params.Meta[k], listMeta[k]) {
						t.Errorf("call %d %s = %s, want %s as in tools/list", i, k, c.Params.Meta[k], listMeta[k])
					}
				}
				if len(c.Params.Meta) != 3 {
					t.Errorf("call %d _meta has %d members besides the token and level, want 3: %v", i, len(c.Params.Meta), c.Params.Meta)
				}
			}
			// The calls went past mcp-go, except the one after the log
			// level changed, which teaches the new _meta.
			for i, c := range calls {
				id, err := c.ID.Int64()
				direct := err == nil && id >= 1<<40
				if wantDirect := !modern || i != 2; direct != wantDirect {
					t.Errorf("call %d (id %s) sent past mcp-go: %v, want %v", i, c.ID, direct, wantDirect)
				}
			}
		})
	}
}

// sameJSON reports whether a and b hold the same value, numbers compared
// as written.
func sameJSON(a, b json.RawMessage) bool {
	decode := func(r json.RawMessage) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(r))
		d.UseNumber()
		var v any
		return v, d.Decode(&v) == nil
	}
	x, okx := decode(a)
	y, oky := decode(b)
	return okx && oky && reflect.DeepEqual(x, y)
}

// A 2026-07-28 stdio server that answers a call sent past mcp-go with
// input_required gets the call again through mcp-go, which puts its
// question to the caller and sends the answer: the caller is asked once
// and gets the final result.
func TestStdioCallAskingForInputIsFinishedByMcpGo(t *testing.T) {
	t.Parallel()
	cfg, log := teeDemo(t)
	s := connect(t, mcpclient.New(mcpclient.Options{ProtocolVersion: mcp.ProtocolVersion20260728}), cfg, nil)
	loadAll(t, s) // teaches the direct path the session's _meta
	var asked []domain.ServerRequest
	asker := askFunc(func(_ context.Context, req domain.ServerRequest) (json.RawMessage, error) {
		asked = append(asked, req)
		return json.RawMessage(`{"action":"accept","content":{"confirm":true}}`), nil
	})
	out := callWith(t, connectCtx(t), s, asker, "confirm_action", `{"action":"ship it"}`)
	if out.isError || !strings.Contains(out.text, `"confirm":true`) {
		t.Errorf("result %+v, want the answer", out)
	}
	if len(asked) != 1 || asked[0].Method != domain.MethodElicit {
		t.Errorf("asked %+v, want one elicitation", asked)
	}
	var ids []string
	for _, r := range readSent(t, log) {
		if r.Method == string(mcp.MethodToolsCall) {
			ids = append(ids, string(r.ID))
		}
	}
	if len(ids) < 2 {
		t.Fatalf("the server read calls with ids %v, want the direct one and mcp-go's", ids)
	}
	if id, err := json.Number(ids[0]).Int64(); err != nil || id < 1<<40 {
		t.Errorf("first call id %s, want one sent past mcp-go", ids[0])
	}
	for _, s := range ids[1:] {
		if id, err := json.Number(s).Int64(); err != nil || id >= 1<<40 {
			t.Errorf("later call id %s, want mcp-go's", s)
		}
	}
}
