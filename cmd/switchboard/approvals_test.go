package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// Project servers (.mcp.json) wait for approval before anything runs; an
// approval connects at once and is remembered, a rejection too, and an
// edited config asks again. On a name clash the user's entry wins.
func TestProjectServersNeedApproval(t *testing.T) {
	data := t.TempDir() // launch uses it as the project too
	project := map[string]any{"mcpServers": map[string]any{"proj": demoServer(), "other": demoServer(), "mine": demoServer("--name", "theirs")}}
	writeProject := func() {
		b, _ := json.Marshal(project)
		tmp := filepath.Join(data, ".mcp.json.tmp")
		if err := os.WriteFile(tmp, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(data, ".mcp.json")); err != nil {
			t.Fatal(err)
		}
	}
	writeProject()
	settings := writeSettings(t, map[string]any{"mine": demoServer()})
	p := launch(t, data, "--settings", settings)
	p.events("mine", isState("connected"))
	if s := p.status("mine"); s.Source != settings {
		t.Errorf("mine comes from %q, want the user's file %q", s.Source, settings)
	}
	for _, n := range []string{"proj", "other"} {
		if s := p.status(n); s.BlockedReason == nil || *s.BlockedReason != "pending_approval" {
			t.Fatalf("%s: blocked %v, want pending_approval", n, s.BlockedReason)
		}
	}
	if kids := children(p.cmd.Process.Pid); len(kids) != 1 {
		t.Errorf("processes %v: a pending server started", kids)
	}

	if code, body := p.decide(handlers.PathServerApprove, "proj"); code != http.StatusOK {
		t.Fatalf("approve: %d %s", code, body)
	}
	p.events("proj", isState("connected"))
	if code, body := p.decide(handlers.PathServerReject, "other"); code != http.StatusOK {
		t.Fatalf("reject: %d %s", code, body)
	}
	if s := p.status("other"); s.BlockedReason == nil || *s.BlockedReason != "rejected" {
		t.Errorf("other after reject: %v", s.BlockedReason)
	}

	// Editing the rejected server's config asks again.
	project["mcpServers"].(map[string]any)["other"] = demoServer("--name", "changed")
	writeProject()
	p.events("other", func(s handlers.StatusDTO) bool {
		return s.BlockedReason != nil && *s.BlockedReason == "pending_approval"
	})
	if s := p.status("proj"); s.State != "connected" {
		t.Errorf("approved proj was touched by another server's edit: %s", s.State)
	}
}

// decide posts a decision about name's pending config, sending the
// fingerprint its status shows, as a client that reviewed it does.
func (p *proc) decide(pattern, name string) (int, []byte) {
	p.t.Helper()
	a := p.status(name).Approval
	if a == nil {
		p.t.Fatalf("%s: no pending approval to decide", name)
	}
	body, _ := json.Marshal(handlers.DecisionDTO{Fingerprint: a.Fingerprint})
	req, _ := http.NewRequest(http.MethodPost, p.url+handlers.ServerPath(pattern, name), bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	p.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("decide %s: %v", name, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}
