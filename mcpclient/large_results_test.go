package mcpclient_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// A result larger than what mcp-go is handed arrives exactly as the server
// sent it, and the session goes on answering calls after it.
func TestStdioLargeResultArrivesAsSent(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{}), bulkStdio(), nil)
	for _, size := range []int{3 << 20, 10} {
		out, err := s.CallTool(connectCtx(t), "bulk", json.RawMessage(`{"bytes": `+strconv.Itoa(size)+`}`), nil)
		if err != nil {
			t.Fatalf("CallTool(%d bytes): %v", size, err)
		}
		var r struct {
			Content []struct{ Type, Text string }
		}
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("CallTool(%d bytes): result is not JSON: %v", size, err)
		}
		if len(r.Content) != 1 || r.Content[0].Text != strings.Repeat("x", size) {
			t.Errorf("CallTool(%d bytes): got %d items, want one text of %d x", size, len(r.Content), size)
		}
	}
}
