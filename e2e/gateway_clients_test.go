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
	"time"
)

// gatewaySpec is what gateway/v1.mjs reads: where the gateway is, the
// token to send, and the calls and reads to make in order.
type gatewaySpec struct {
	URL       string        `json:"url"`
	Token     string        `json:"token"`
	Calls     []gatewayCall `json:"calls,omitempty"`
	Reads     []string      `json:"reads,omitempty"`
	TimeoutMs int           `json:"timeoutMs,omitempty"`
	// Elicitation, when set, makes the client declare elicitation and
	// answer every elicitation/create with it (say {"action": "accept",
	// "content": {...}}); without it the client declares no capability.
	Elicitation map[string]any `json:"elicitation,omitempty"`
}

type gatewayCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments,omitempty"`
}

type gatewayAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// gatewayResult is what the official client saw through the gateway.
type gatewayResult struct {
	ProtocolVersion string            `json:"protocolVersion"`
	Tools           []json.RawMessage `json:"tools"`
	Calls           []gatewayAnswer   `json:"calls"`
	Reads           []gatewayAnswer   `json:"reads"`
	// Elicited are the params of every elicitation/create the client
	// handled, in order.
	Elicited []json.RawMessage `json:"elicited"`
}

// toolNames are the names tools/list gave.
func (r gatewayResult) toolNames() []string {
	var out []string
	for _, raw := range r.Tools {
		var t struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(raw, &t)
		out = append(out, t.Name)
	}
	return out
}

// runGatewayClient runs gateway/<script> with the machine's node on spec.
func runGatewayClient(script string, spec gatewaySpec) (gatewayResult, error) {
	var out gatewayResult
	path, err := filepath.Abs(filepath.Join("gateway", script))
	if err != nil {
		return out, err
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
	cmd := exec.CommandContext(ctx, "node", path)
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = append(os.Environ(), "NO_PROXY=127.0.0.1,localhost")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return out, fmt.Errorf("%s: %w\nstderr:\n%s", script, err, tail(stderr.String(), 40))
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return out, fmt.Errorf("%s printed no JSON: %w\n%s\nstderr:\n%s", script, err, clip(stdout.Bytes()), tail(stderr.String(), 40))
	}
	if len(out.Calls) != len(spec.Calls) || len(out.Reads) != len(spec.Reads) {
		return out, fmt.Errorf("%s made %d calls and %d reads, want %d and %d", script, len(out.Calls), len(out.Reads), len(spec.Calls), len(spec.Reads))
	}
	return out, nil
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

// gatewayPatience bounds waits for a card the gateway's call made.
const gatewayPatience = 30 * time.Second
