//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// invocation is the part of the API's invocation object the tests read.
type invocation struct {
	ID         string          `json:"id"`
	ServerName string          `json:"serverName"`
	Tool       string          `json:"tool"`
	Arguments  json.RawMessage `json:"arguments"`
	Status     string          `json:"status"`
	Progress   *struct {
		Progress float64  `json:"progress"`
		Total    *float64 `json:"total"`
		Message  string   `json:"message"`
	} `json:"progress"`
	Result     json.RawMessage `json:"result"`
	Truncated  bool            `json:"truncated"`
	ResultSize int64           `json:"resultSize"`
	Error      *string         `json:"error"`
	RetryOf    *string         `json:"retryOf"`
	Version    uint64          `json:"version"`
}

func (v invocation) String() string {
	e := ""
	if v.Error != nil {
		e = " error=" + *v.Error
	}
	return fmt.Sprintf("%s %s/%s %s v%d%s", v.ID, v.ServerName, v.Tool, v.Status, v.Version, e)
}

// invLog is every `event: invocation` frame of one /api/v1/events stream,
// in order. Its buffer takes results of many megabytes, unlike the status
// follower's.
type invLog struct {
	mu   sync.Mutex
	list []invocation
	grew chan struct{}
	err  error
}

// followInvocations subscribes to in's event stream and returns once the
// subscription exists (the response headers arrived), so no call made
// afterwards can be missed. It ends with the test.
func followInvocations(t *testing.T, in *instance) *invLog {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in.URL+"/api/v1/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("open event stream: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("event stream: got %s, want 200", resp.Status)
	}
	l := &invLog{grew: make(chan struct{})}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				event = v
				continue
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok || event != "invocation" {
				if line == "" {
					event = ""
				}
				continue
			}
			var inv invocation
			if err := json.Unmarshal([]byte(data), &inv); err != nil {
				continue
			}
			l.mu.Lock()
			l.list = append(l.list, inv)
			close(l.grew)
			l.grew = make(chan struct{})
			l.mu.Unlock()
		}
		l.mu.Lock()
		l.err = fmt.Errorf("event stream ended: %v", sc.Err())
		close(l.grew)
		l.mu.Unlock()
	}()
	return l
}

// wait returns the first invocation event of id that matches, waiting up
// to waitLong.
func (l *invLog) wait(t *testing.T, id, what string, match func(invocation) bool) invocation {
	t.Helper()
	deadline := time.NewTimer(waitLong)
	defer deadline.Stop()
	for i := 0; ; {
		l.mu.Lock()
		for ; i < len(l.list); i++ {
			if l.list[i].ID == id && match(l.list[i]) {
				v := l.list[i]
				l.mu.Unlock()
				return v
			}
		}
		grew, err := l.grew, l.err
		l.mu.Unlock()
		if err != nil {
			t.Fatalf("waiting for %s of %s: %v", what, id, err)
		}
		select {
		case <-grew:
		case <-deadline.C:
			t.Fatalf("no %s of invocation %s within %s; its events: %v", what, id, waitLong, l.of(id))
		}
	}
}

// waitStatus waits until id reaches status.
func (l *invLog) waitStatus(t *testing.T, id, status string) invocation {
	t.Helper()
	return l.wait(t, id, "status "+status, func(v invocation) bool { return v.Status == status })
}

// waitFinal waits until id ends (success, error or cancelled).
func (l *invLog) waitFinal(t *testing.T, id string) invocation {
	t.Helper()
	return l.wait(t, id, "a final status", func(v invocation) bool {
		return v.Status == "success" || v.Status == "error" || v.Status == "cancelled"
	})
}

// of lists the events of id, for failure messages.
func (l *invLog) of(id string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, v := range l.list {
		if v.ID == id {
			out = append(out, v.String())
		}
	}
	return out
}

// newIDs returns the ids of invocations first seen after the first n events.
func (l *invLog) firstAfter(t *testing.T, n int, what string, match func(invocation) bool) invocation {
	t.Helper()
	deadline := time.NewTimer(waitLong)
	defer deadline.Stop()
	for i := n; ; {
		l.mu.Lock()
		for ; i < len(l.list); i++ {
			if match(l.list[i]) {
				v := l.list[i]
				l.mu.Unlock()
				return v
			}
		}
		grew, err := l.grew, l.err
		l.mu.Unlock()
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		select {
		case <-grew:
		case <-deadline.C:
			t.Fatalf("no %s within %s", what, waitLong)
		}
	}
}

func (l *invLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.list)
}

// callTool starts a tool call through the API and returns the 202 answer.
func callTool(t *testing.T, in *instance, server, tool string, args any) invocation {
	t.Helper()
	body, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	code, out := callToolRaw(t, in, server, tool, body)
	if code != http.StatusAccepted {
		t.Fatalf("POST call %s/%s: got %d %s, want 202", server, tool, code, clip(out))
	}
	var inv invocation
	if err := json.Unmarshal(out, &inv); err != nil {
		t.Fatalf("decode call answer: %v", err)
	}
	if inv.ID == "" {
		t.Fatalf("call %s/%s: the answer carries no id: %s", server, tool, clip(out))
	}
	return inv
}

// callToolRaw posts body as a tool call and returns the status and body.
func callToolRaw(t *testing.T, in *instance, server, tool string, body []byte) (int, []byte) {
	t.Helper()
	u := in.URL + "/api/v1/servers/" + url.PathEscape(server) + "/tools/" + url.PathEscape(tool) + "/call"
	resp, err := http.Post(u, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", u, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// apiGet decodes a GET of the API into out.
func apiGet(t *testing.T, in *instance, path string, out any) {
	t.Helper()
	resp, err := http.Get(in.URL + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: got %s %s, want 200", path, resp.Status, clip(body))
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("decode GET %s: %v", path, err)
	}
}

// apiPost posts an empty body to path and returns status and body.
func apiPost(t *testing.T, in *instance, path string) (int, []byte) {
	t.Helper()
	resp, err := http.Post(in.URL+path, "application/json", nil)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// demoOnly starts switchboard with one stdio demo server and waits until
// it is connected.
func demoOnly(t *testing.T, name string) *instance {
	t.Helper()
	in := startWith(t, servers{name: demoStdio(name, nil)})
	in.waitState(t, name, "connected")
	return in
}

// everythingStdio is server-everything as a stdio child.
func everythingStdio(t *testing.T) map[string]any {
	t.Helper()
	js, err := filepath.Abs(filepath.Join("node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"command": "node", "args": []string{js, "stdio"}}
}
