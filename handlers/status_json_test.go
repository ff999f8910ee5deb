package handlers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// statusKeys is every field of the status object, which clients rely on
// being present even when null.
var statusKeys = []string{
	"serverName", "source", "transport", "target", "workDir", "state", "phase", "attempt", "maxAttempts", "delayMs",
	"nextRetryAt", "startingSince", "lastStderr", "error", "errorCategory", "exitCode", "signal", "errorStderr",
	"timeoutSeconds", "timeoutSetting", "lastErrorAt", "retryable", "disabledReason", "blockedReason",
	"toolCount", "resourceCount", "promptCount", "connectedAt", "lastSyncAt", "latencyMs", "protocolVersion", "auth",
	"autoReconnect", "keepAliveSeconds", "version",
}

var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC) // 1796029200000 ms

func TestStatusJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   domain.Status
		want string
	}{
		{
			name: "connecting-has-nulls-for-everything-unknown",
			in: domain.Status{ServerName: "files", Source: "/s.json", Transport: domain.TransportStdio, Target: "npx files", WorkDir: "/home/ana",
				State: domain.StateConnecting, Phase: domain.PhaseConnecting, MaxAttempts: 5, Version: 1},
			want: `{"serverName":"files","source":"/s.json","transport":"stdio","target":"npx files","workDir":"/home/ana",
				"state":"connecting","phase":"connecting","disabledReason":null,"blockedReason":null,"attempt":0,"maxAttempts":5,
				"delayMs":0,"nextRetryAt":null,"startingSince":null,"lastStderr":null,"error":null,"errorCategory":null,"exitCode":null,"signal":null,"errorStderr":null,"timeoutSeconds":null,"timeoutSetting":null,"lastErrorAt":null,
				"retryable":false,"toolCount":0,"resourceCount":0,"promptCount":0,"connectedAt":null,"lastSyncAt":null,
				"latencyMs":null,"protocolVersion":null,"auth":null,"autoReconnect":false,"keepAliveSeconds":0,"version":1}`,
		},
		{
			name: "connected-with-latency-has-times-in-epoch-ms",
			in: domain.Status{ServerName: "files", Transport: domain.TransportHTTP, Target: "https://x/mcp",
				State: domain.StateConnected, Phase: domain.PhaseConnected, MaxAttempts: 5,
				ToolCount: 3, ResourceCount: 2, PromptCount: 1, ConnectedAt: t0, LastSyncAt: t0.Add(time.Second),
				Latency: 1500 * time.Microsecond, HasLatency: true, ProtocolVersion: "2025-11-25", Version: 7},
			want: `{"serverName":"files","source":"","transport":"http","target":"https://x/mcp","workDir":null,
				"state":"connected","phase":"connected","disabledReason":null,"blockedReason":null,"attempt":0,"maxAttempts":5,
				"delayMs":0,"nextRetryAt":null,"startingSince":null,"lastStderr":null,"error":null,"errorCategory":null,"exitCode":null,"signal":null,"errorStderr":null,"timeoutSeconds":null,"timeoutSetting":null,"lastErrorAt":null,
				"retryable":false,"toolCount":3,"resourceCount":2,"promptCount":1,"connectedAt":1796029200000,
				"lastSyncAt":1796029201000,"latencyMs":1.5,"protocolVersion":"2025-11-25","auth":null,"autoReconnect":false,"keepAliveSeconds":0,"version":7}`,
		},
		{
			name: "waiting-after-exit-has-error-code-and-retry",
			in: domain.Status{ServerName: "files", Transport: domain.TransportStdio, Target: "npx files",
				State: domain.StateError, Phase: domain.PhaseWaiting, Attempt: 2, MaxAttempts: 5,
				Delay: 2 * time.Second, NextRetryAt: t0.Add(2 * time.Second), Error: "exited (code 0)",
				ErrorCategory: domain.CategoryExited, ExitCode: ptr(0), LastErrorAt: t0, Retryable: true, Version: 9},
			want: `{"serverName":"files","source":"","transport":"stdio","target":"npx files","workDir":null,
				"state":"error","phase":"waiting","disabledReason":null,"blockedReason":null,"attempt":2,"maxAttempts":5,
				"delayMs":2000,"nextRetryAt":1796029202000,"startingSince":null,"lastStderr":null,"error":"exited (code 0)","errorCategory":"exited",
				"exitCode":0,"signal":null,"errorStderr":null,"timeoutSeconds":null,"timeoutSetting":null,"lastErrorAt":1796029200000,"retryable":true,"toolCount":0,"resourceCount":0,
				"promptCount":0,"connectedAt":null,"lastSyncAt":null,"latencyMs":null,"protocolVersion":null,"auth":null,"autoReconnect":false,"keepAliveSeconds":0,"version":9}`,
		},
		{
			name: "starting-says-since-when-and-its-last-stderr-line",
			in: domain.Status{ServerName: "files", Transport: domain.TransportStdio, State: domain.StateConnecting,
				Phase: domain.PhaseConnecting, StartingSince: t0, LastStderr: "npm warn exec installing", Version: 2},
			want: `{"serverName":"files","source":"","transport":"stdio","target":"","workDir":null,"state":"connecting",
				"phase":"connecting","disabledReason":null,"blockedReason":null,"attempt":0,"maxAttempts":0,"delayMs":0,
				"nextRetryAt":null,"startingSince":1796029200000,"lastStderr":"npm warn exec installing","error":null,
				"errorCategory":null,"exitCode":null,"signal":null,"errorStderr":null,"timeoutSeconds":null,"timeoutSetting":null,
				"lastErrorAt":null,"retryable":false,"toolCount":0,"resourceCount":0,"promptCount":0,"connectedAt":null,
				"lastSyncAt":null,"latencyMs":null,"protocolVersion":null,"auth":null,"autoReconnect":false,"keepAliveSeconds":0,"version":2}`,
		},
		{
			name: "cut-off-start-names-limit-and-setting",
			in: domain.Status{ServerName: "files", Transport: domain.TransportStdio, State: domain.StateError,
				Phase: domain.PhaseWaiting, Error: "no answer to initialize within 2m0s (startTimeoutSeconds)",
				ErrorCategory: domain.CategoryTimeout, TimeoutLimit: 2 * time.Minute, TimeoutSetting: "startTimeoutSeconds",
				ErrorStderr: "npm http fetch GET 200", Version: 4},
			want: `{"serverName":"files","source":"","transport":"stdio","target":"","workDir":null,"state":"error",
				"phase":"waiting","disabledReason":null,"blockedReason":null,"attempt":0,"maxAttempts":0,"delayMs":0,
				"nextRetryAt":null,"startingSince":null,"lastStderr":null,
				"error":"no answer to initialize within 2m0s (startTimeoutSeconds)","errorCategory":"timeout","exitCode":null,
				"signal":null,"errorStderr":"npm http fetch GET 200","timeoutSeconds":120,"timeoutSetting":"startTimeoutSeconds",
				"lastErrorAt":null,"retryable":false,"toolCount":0,"resourceCount":0,"promptCount":0,"connectedAt":null,
				"lastSyncAt":null,"latencyMs":null,"protocolVersion":null,"auth":null,"autoReconnect":false,"keepAliveSeconds":0,"version":4}`,
		},
		{
			name: "auto-disabled-says-so",
			in: domain.Status{ServerName: "files", Transport: domain.TransportSSE, State: domain.StateDisabled,
				Phase: domain.PhaseExhausted, DisabledReason: domain.DisabledAuto, Version: 3},
			want: `{"serverName":"files","source":"","transport":"sse","target":"","workDir":null,"state":"disabled",
				"phase":"exhausted","disabledReason":"auto","blockedReason":null,"attempt":0,"maxAttempts":0,"delayMs":0,
				"nextRetryAt":null,"startingSince":null,"lastStderr":null,"error":null,"errorCategory":null,"exitCode":null,"signal":null,"errorStderr":null,"timeoutSeconds":null,"timeoutSetting":null,"lastErrorAt":null,
				"retryable":false,"toolCount":0,"resourceCount":0,"promptCount":0,"connectedAt":null,
				"lastSyncAt":null,"latencyMs":null,"protocolVersion":null,"auth":null,"autoReconnect":false,"keepAliveSeconds":0,"version":3}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(handlers.StatusJSON(tc.in))
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			var want bytes.Buffer
			if err := json.Compact(&want, []byte(tc.want)); err != nil {
				t.Fatalf("bad want: %v", err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("got  %s\nwant %s", got, want.Bytes())
			}
		})
	}
}

func TestStatusJSONHasEveryKey(t *testing.T) {
	b, err := json.Marshal(handlers.StatusJSON(domain.Status{}))
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	if len(fields) != len(statusKeys) {
		t.Errorf("keys: got %d, want %d: %s", len(fields), len(statusKeys), b)
	}
	for _, k := range statusKeys {
		if _, ok := fields[k]; !ok {
			t.Errorf("missing key %q in %s", k, b)
		}
	}
}

func TestStatusJSONDoesNotAliasExitCode(t *testing.T) {
	code := 1
	d := handlers.StatusJSON(domain.Status{ExitCode: &code})
	code = 2
	if *d.ExitCode != 1 {
		t.Errorf("exitCode after the snapshot changed: got %d, want 1", *d.ExitCode)
	}
}

func benchStatus(i int) domain.Status {
	return domain.Status{
		ServerName: fmt.Sprintf("server-%03d", i), Source: "/home/dev/.config/switchboard/mcp.json",
		Transport: domain.TransportStdio, Target: "npx -y @modelcontextprotocol/server-everything",
		State: domain.StateError, Phase: domain.PhaseWaiting, Attempt: 2, MaxAttempts: 5,
		Delay: 2 * time.Second, NextRetryAt: t0.Add(2 * time.Second), Error: "exited (code 1): listen EADDRINUSE",
		ErrorCategory: domain.CategoryExited, ExitCode: ptr(1), LastErrorAt: t0, Retryable: true,
		ToolCount: 12, ResourceCount: 100, PromptCount: 3, LastSyncAt: t0.Add(-time.Minute),
		ProtocolVersion: "2025-11-25", Version: uint64(1000 + i),
	}
}

func BenchmarkStatusJSONOne(b *testing.B) {
	s := benchStatus(0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(handlers.StatusJSON(s)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStatusJSONList100(b *testing.B) {
	list := make([]domain.Status, 100)
	for i := range list {
		list[i] = benchStatus(i)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(handlers.StatusListJSON(list)); err != nil {
			b.Fatal(err)
		}
	}
}
