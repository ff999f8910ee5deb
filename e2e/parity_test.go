//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// TestParity runs the servers people install from npm under one
// Switchboard and, side by side, under the official TypeScript SDK client,
// and checks that Switchboard's API shows each server's tools and call
// results as the server sent them.
func TestParity(t *testing.T) {
	t.Parallel()
	ev := startEverything(t)
	list := parityServers(t, ev.URL(), parityPage(t))
	cfg := servers{}
	for _, s := range list {
		cfg[s.name] = s.entry
	}
	in := startWith(t, cfg)
	calls := followInvocations(t, in)

	for _, s := range list {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			spec := s.direct
			spec.Calls = callsFor(t, s.calls, s.directRoot)
			type ran struct {
				d   directResult
				err error
			}
			direct := make(chan ran, 1)
			go func() {
				d, err := runDirect(spec)
				direct <- ran{d, err}
			}()
			in.waitState(t, s.name, "connected")
			r := <-direct
			if r.err != nil {
				t.Fatalf("%s called directly: %v", s.name, r.err)
			}
			d := r.d

			t.Run("tools", func(t *testing.T) {
				compareTools(t, s.name, d.Tools, switchboardTools(t, in, s.name))
			})

			sbCalls := callsFor(t, s.calls, s.sbRoot)
			dMask, sbMask := s.maskers()
			// A server that asks for roots during a call the dashboard made
			// gets Switchboard's workspace (the project directory), where the
			// direct client answers none: Playwright then names its output
			// directory relative to the workspace ("../005/out/…") rather
			// than its own working directory ("out/…").
			if rel, err := filepath.Rel(in.Home, s.sbRoot); err == nil && s.sbRoot != "" && strings.HasPrefix(rel, "..") {
				sbMask.literal[filepath.ToSlash(rel)+"/"] = ""
			}
			results := make([]sbOutcome, len(sbCalls))
			t.Run("calls", func(t *testing.T) {
				for i, c := range sbCalls {
					results[i] = callThrough(t, in, calls, s.name, c)
					compareCall(t, fmt.Sprintf("%s #%d %s", s.name, i+1, c.Name), d.Calls[i].Result, d.Calls[i].Error, results[i], dMask, sbMask)
				}
			})

			if s.name == "playwright" {
				t.Run("screenshot-returns-image", func(t *testing.T) {
					// The fixed calls end with browser_close: open the page again.
					if nav := callThrough(t, in, calls, s.name, s.calls[0]); nav.status != "success" {
						t.Fatalf("%s: got %s %s %s, want success", s.calls[0].Name, nav.status, nav.err, nav.refused)
					}
					out := callThrough(t, in, calls, s.name, parityCall{"browser_take_screenshot", map[string]any{}})
					if out.refused != "" {
						t.Fatalf("browser_take_screenshot {}: switchboard refused the call: %s", out.refused)
					}
					if !hasImage(out.result) {
						t.Errorf("browser_take_screenshot {}: got %s %s, want an image content item", out.status, clip(out.result))
					}
				})
			}

			if s.links >= 0 {
				t.Run("resource-not-found-keeps-connection", func(t *testing.T) {
					readNotFound(t, in, calls, s.name, results[s.links])
				})
			}
		})
	}
}

// switchboardTools is the list of tools GET /api/v1/servers/{name} shows,
// each tool as the API wrote it.
func switchboardTools(t *testing.T, in *instance, server string) []map[string]json.RawMessage {
	t.Helper()
	var d struct {
		Capabilities struct {
			Tools []map[string]json.RawMessage `json:"tools"`
		} `json:"capabilities"`
	}
	apiGet(t, in, "/api/v1/servers/"+url.PathEscape(server), &d)
	return d.Capabilities.Tools
}

// sbOutcome is one call made through Switchboard's API.
type sbOutcome struct {
	id      string
	status  string          // success, error, cancelled
	result  json.RawMessage // the CallToolResult as the API shows it
	err     string          // the invocation's error text
	refused string          // Switchboard answered the call with something other than 202
}

// callThrough posts c and waits for its invocation to end, then reads it
// back whole.
func callThrough(t *testing.T, in *instance, l *invLog, server string, c parityCall) sbOutcome {
	t.Helper()
	body, err := json.Marshal(c.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	code, out := callToolRaw(t, in, server, c.Name, body)
	if code != http.StatusAccepted {
		return sbOutcome{refused: fmt.Sprintf("%d %s", code, strings.TrimSpace(clip(out)))}
	}
	var inv invocation
	if err := json.Unmarshal(out, &inv); err != nil || inv.ID == "" {
		t.Fatalf("call %s/%s: answer %s (%v)", server, c.Name, clip(out), err)
	}
	l.waitFinal(t, inv.ID)
	var full invocation
	apiGet(t, in, "/api/v1/invocations/"+url.PathEscape(inv.ID), &full)
	if full.Truncated {
		t.Errorf("call %s/%s: result truncated (%d bytes)", server, c.Name, full.ResultSize)
	}
	o := sbOutcome{id: full.ID, status: full.Status, result: full.Result}
	if full.Error != nil {
		o.err = *full.Error
	}
	return o
}

// compareCall checks one call's outcome through Switchboard against the
// direct one: the same result after masks, or, when the server answered
// with a JSON-RPC error, an error that carries the server's message.
func compareCall(t *testing.T, what string, dResult json.RawMessage, dErr *rpcError, sb sbOutcome, dMask, sbMask masker) {
	t.Helper()
	direct := ""
	if dErr != nil {
		direct = fmt.Sprintf("JSON-RPC error %v %q", dErr.Code, dErr.Message)
	} else {
		direct = "result " + firstLine(string(dResult))
	}
	switch {
	case sb.refused != "":
		t.Errorf("%s: switchboard refused the call with %s; called directly the server answered %s", what, sb.refused, clip([]byte(direct)))
	case dErr != nil:
		if sb.status != "error" || !strings.Contains(sb.err, dErr.Message) {
			t.Errorf("%s: through switchboard %s (error %q); directly %s", what, sb.status, sb.err, direct)
		}
	case len(sb.result) == 0:
		t.Errorf("%s: through switchboard %s with no result (error %q); directly %s", what, sb.status, sb.err, clip([]byte(direct)))
	default:
		want, got := dMask.mask(t, dResult), sbMask.mask(t, withoutEraFields(t, sb.result, dResult))
		if want != got {
			t.Errorf("%s: result differs from the direct call:\n%s", what, lineDiff(want, got))
		}
	}
}

// hasImage reports whether a CallToolResult holds an image content item
// with data.
func hasImage(result json.RawMessage) bool {
	var r struct {
		Content []struct {
			Type     string `json:"type"`
			Data     string `json:"data"`
			MIMEType string `json:"mimeType"`
		} `json:"content"`
	}
	if json.Unmarshal(result, &r) != nil {
		return false
	}
	for _, c := range r.Content {
		if c.Type == "image" && c.Data != "" && strings.HasPrefix(c.MIMEType, "image/") {
			return true
		}
	}
	return false
}

// withoutEraFields drops from Switchboard's result what only the
// 2026-07-28 protocol adds — resultType and _meta's serverInfo — when the
// direct client, which speaks the 2025-11-25 handshake, got neither:
// Switchboard talks to a dual-era server in the newer era, and those
// fields say which era it was, not what the server answered.
func withoutEraFields(t *testing.T, sb, direct json.RawMessage) json.RawMessage {
	t.Helper()
	var d, r map[string]json.RawMessage
	if json.Unmarshal(direct, &d) != nil || json.Unmarshal(sb, &r) != nil {
		return sb
	}
	if _, ok := d["resultType"]; ok {
		return sb
	}
	if _, ok := r["resultType"]; !ok {
		return sb
	}
	delete(r, "resultType")
	var meta map[string]json.RawMessage
	if json.Unmarshal(r["_meta"], &meta) == nil && meta != nil {
		delete(meta, "io.modelcontextprotocol/serverInfo")
		if len(meta) == 0 {
			delete(r, "_meta")
		} else if b, err := json.Marshal(meta); err == nil {
			r["_meta"] = b
		}
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
