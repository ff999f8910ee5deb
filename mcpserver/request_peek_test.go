package mcpserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Every middleware sees the same peek, read once, and whatever mcp-go
// reads after them is the body exactly as the client sent it, however
// large or malformed.
func TestPeekRequest(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"s":"` + strings.Repeat("a", maxPeek) + `"}}}`
	for _, tc := range []struct {
		name, body          string
		whole, parsed       bool
		method, id          string
		isCall64K, isCall1M bool
	}{
		{"call", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}`, true, true, "tools/call", "7", true, true},
		{"call-over-64KB", `{"id":"a","method":"tools/call","params":{"s":"` + strings.Repeat("b", 70<<10) + `"}}`, true, true, "tools/call", `"a"`, false, true},
		{"over-1MB", big, false, false, "", "", false, false},
		{"not-json", `{"method":"tools/call"`, true, false, "", "", false, false},
		{"batch", `[{"id":1,"method":"tools/call"}]`, true, false, "", "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tc.body))
			p, r := peekRequest(r)
			if p.whole != tc.whole || p.parsed != tc.parsed || p.method != tc.method || string(p.id) != tc.id {
				t.Errorf("peek = whole %v parsed %v method %q id %s; want %v %v %q %s", p.whole, p.parsed, p.method, p.id, tc.whole, tc.parsed, tc.method, tc.id)
			}
			if got := p.is("tools/call", 64<<10); got != tc.isCall64K {
				t.Errorf("is(tools/call, 64 KB) = %v, want %v", got, tc.isCall64K)
			}
			if got := p.is("tools/call", maxPeek); got != tc.isCall1M {
				t.Errorf("is(tools/call, 1 MB) = %v, want %v", got, tc.isCall1M)
			}
			again, r := peekRequest(r)
			if again != p {
				t.Errorf("a second middleware read the body again")
			}
			rest, err := io.ReadAll(r.Body)
			if err != nil || string(rest) != tc.body {
				t.Errorf("body after the peek: %d bytes, %v; want the %d bytes sent", len(rest), err, len(tc.body))
			}
		})
	}
}
