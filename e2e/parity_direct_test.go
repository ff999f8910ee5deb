//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// directSpec is what parity/direct.mjs reads: one server, started or
// reached without Switchboard, and the calls to make on it in order.
type directSpec struct {
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	URL       string            `json:"url,omitempty"`
	Calls     []parityCall      `json:"calls"`
	TimeoutMs int               `json:"timeoutMs"`
}

// parityCall is one tools/call, made the same way directly and through
// Switchboard's API.
type parityCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// rpcError is a JSON-RPC error response as the server sent it.
type rpcError struct {
	Code    *int            `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// directResult is what the official TypeScript SDK client saw.
type directResult struct {
	Tools []json.RawMessage `json:"tools"`
	Calls []struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	} `json:"calls"`
}

// directTimeout bounds one run of direct.mjs: a browser server starts
// Chromium and makes several calls.
const directTimeout = 3 * time.Minute

// runDirect runs parity/direct.mjs on spec with the machine's node and
// returns what it printed; its stderr (the server's too) is part of the
// error when it fails. It takes no *testing.T so that a test can run it
// beside Switchboard in a goroutine.
func runDirect(spec directSpec) (directResult, error) {
	var out directResult
	script, err := filepath.Abs(filepath.Join("parity", "direct.mjs"))
	if err != nil {
		return out, err
	}
	if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		return out, fmt.Errorf("@modelcontextprotocol/sdk is not installed (cd e2e && npm ci): %w", err)
	}
	if spec.TimeoutMs == 0 {
		spec.TimeoutMs = 60_000
	}
	in, err := json.Marshal(spec)
	if err != nil {
		return out, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), directTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return out, fmt.Errorf("direct client: %w\nstderr:\n%s", err, tail(stderr.String(), 40))
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return out, fmt.Errorf("direct client printed no JSON: %w\n%s\nstderr:\n%s", err, clip(stdout.Bytes()), tail(stderr.String(), 40))
	}
	if len(out.Calls) != len(spec.Calls) {
		return out, fmt.Errorf("direct client made %d calls, want %d", len(out.Calls), len(spec.Calls))
	}
	return out, nil
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
