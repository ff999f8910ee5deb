//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// modernUpstream is gateway/modern_upstream.mjs running: an official
// TypeScript SDK v2 server that answers MCP 2026-07-28 only and refuses
// initialize. It records every request it was sent.
type modernUpstream struct {
	URL string

	mu       sync.Mutex
	requests []upstreamRequest // guarded by mu
}

// upstreamRequest is one line of the upstream's request log.
type upstreamRequest struct {
	Method string `json:"method"`
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// startModernUpstream runs the 2026-07-28-only server until the test ends.
func startModernUpstream(t *testing.T) *modernUpstream {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("gateway", "modern_upstream.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script)
	cmd.Stderr = &testLog{t: t}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 64*1024), 1<<20)
	if !lines.Scan() {
		go func() { _ = cmd.Wait(); close(exited) }()
		t.Fatalf("modern upstream printed no URL: %v", lines.Err())
	}
	var first struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(lines.Bytes(), &first); err != nil || first.URL == "" {
		go func() { _ = cmd.Wait(); close(exited) }()
		t.Fatalf("modern upstream's first line %q, want its URL", lines.Text())
	}
	up := &modernUpstream{URL: first.URL}
	go func() {
		for lines.Scan() {
			var r upstreamRequest
			if json.Unmarshal(lines.Bytes(), &r) == nil {
				up.mu.Lock()
				up.requests = append(up.requests, r)
				up.mu.Unlock()
			}
		}
		_ = cmd.Wait()
		close(exited)
	}()
	return up
}

// sent is every request the upstream has logged so far.
func (u *modernUpstream) sent() []upstreamRequest {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.requests)
}

// TestGatewayModernUpstream puts a 2025 client (the official TypeScript
// SDK v1 client, with its initialize session) in front of an upstream that
// speaks only 2026-07-28 and refuses initialize: Switchboard reaches the
// upstream in its own era (the status and the drawer say 2026-07-28,
// stateless), the 2025 client sees its tool through /mcp, and the client's
// call returns exactly what the upstream answered.
func TestGatewayModernUpstream(t *testing.T) {
	up := startModernUpstream(t)

	// The upstream really refuses the 2025 handshake: a plain initialize
	// gets the SDK's unsupported-protocol-version error naming 2026-07-28.
	plain, err := runGatewayClient("v1.mjs", gatewaySpec{URL: up.URL, Token: "unused", TimeoutMs: 10_000})
	if err == nil {
		t.Fatalf("a 2025 client connected to the upstream directly (protocol %q); want initialize refused", plain.ProtocolVersion)
	}
	refused := false
	for _, r := range up.sent() {
		if r.Method == "initialize" && r.Status >= 400 && strings.Contains(r.Body, "2026-07-28") {
			refused = true
		}
	}
	if !refused {
		t.Fatalf("the upstream's log %+v; want initialize refused with 2026-07-28 as what it supports", up.sent())
	}
	mark := len(up.sent())

	in := startWith(t, servers{"modern": {"url": up.URL}})
	in.waitState(t, "modern", "connected")
	var st struct {
		ProtocolVersion *string `json:"protocolVersion"`
		ToolCount       int     `json:"toolCount"`
	}
	apiGet(t, in, "/api/v1/servers/modern", &st)
	if st.ProtocolVersion == nil || *st.ProtocolVersion != "2026-07-28" {
		t.Errorf("status protocolVersion: got %v, want 2026-07-28", st.ProtocolVersion)
	}
	if st.ToolCount != 1 {
		t.Errorf("status toolCount: got %d, want 1 (weather)", st.ToolCount)
	}

	page := open(t, in)
	openDrawer(t, page, "modern")
	if got := text(t, page, drawerSel("modern")+` [data-testid="drawer-protocol"]`); got != "2026-07-28" {
		t.Errorf("drawer protocol: got %q, want 2026-07-28", got)
	}
	if got := text(t, page, drawerSel("modern")+` [data-testid="drawer-protocol-era"]`); !strings.HasPrefix(got, "stateless") {
		t.Errorf("drawer connection: got %q, want the stateless era", got)
	}

	call := gatewayCall{Name: "modern__weather", Arguments: map[string]any{"city": "Lisbon"}}
	got, err := runGatewayClient("v1.mjs", gatewaySpec{URL: in.URL + "/mcp", Token: in.Token, Calls: []gatewayCall{call}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.ProtocolVersion, "2025-") {
		t.Errorf("the client's protocol: got %q, want a 2025 revision (its initialize session)", got.ProtocolVersion)
	}
	if names := got.toolNames(); !slices.Equal(names, []string{"modern__weather"}) {
		t.Errorf("/mcp tools: got %v, want [modern__weather]", names)
	}
	answer := got.Calls[0]
	want := `{"content":[{"type":"text","text":"Sunny in Lisbon, said a 2026-07-28 server"}]}`
	if answer.Error != nil || !sameJSON(withoutMeta(t, answer.Result), json.RawMessage(want)) {
		t.Errorf("modern__weather: got %s %+v, want the upstream's answer %s", clip(answer.Result), answer.Error, want)
	}

	// Switchboard never asked the upstream for a 2025 session: every
	// request after the direct probe above was answered, none was an
	// initialize, and the call reached it.
	calls := 0
	for _, r := range up.sent()[mark:] {
		if r.Method == "initialize" {
			t.Errorf("Switchboard sent the upstream initialize (answered %d): want the 2026-07-28 request first", r.Status)
		}
		if r.Method == "tools/call" {
			calls++
		}
	}
	if calls != 1 {
		t.Errorf("tools/call requests at the upstream: got %d, want 1", calls)
	}
	checkAxe(t, page, "the drawer of a 2026-07-28 server")
}

// withoutMeta drops a result's _meta and resultType, which the upstream's
// 2026-07-28 SDK and the gateway may add, so the content is compared.
func withoutMeta(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return raw
	}
	delete(m, "_meta")
	delete(m, "resultType")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
