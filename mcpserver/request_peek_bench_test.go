package mcpserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkRequestChain runs one tools/call POST through the middlewares
// in front of mcp-go (the handler behind them only reads the body and
// answers), for a 2026-07-28 request and a legacy session's: the gateway's
// own cost per call before mcp-go sees it.
func BenchmarkRequestChain(b *testing.B) {
	const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"},"_meta":{"progressToken":3}}}`
	answer := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hello"}]}}`)
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			b.Fatal(err)
		}
		_, _ = w.Write(answer)
	})
	chain := guardCancel((&endpoint{}).guardSubscribe(forwardRaw(keepExtras(cachedToolLists(mcp)))))
	for _, era := range []struct{ name, session string }{{"2026-07-28", ""}, {"legacy", "s1"}} {
		b.Run(era.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
				if era.session != "" {
					r.Header.Set("Mcp-Session-Id", era.session)
				}
				chain.ServeHTTP(httptest.NewRecorder(), r)
			}
		})
	}
}
