package domain_test

import (
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

// The shapes the security review found unredacted, the ones that already
// worked, and ordinary text that must stay as it is.
func TestRedactGaps(t *testing.T) {
	const R = domain.Redacted
	r := domain.NewRedactor()
	tests := []struct {
		name, in, want string
	}{
		// flags
		{"api_key-space", "srv --api_key sk-underscore-RRRR2222 --port 3", "srv --api_key " + R + " --port 3"},
		{"api_key-equals", "srv --api_key=sk-underscore-RRRR2222", "srv --api_key=" + R},
		{"access-key-equals", "srv --access-key=ak-SSSS3333 -v", "srv --access-key=" + R + " -v"},
		{"access-key-space", "srv --access-key ak-SSSS3333", "srv --access-key " + R},
		{"key-flag", "srv --key k-1234", "srv --key " + R},
		{"secret-key-flag", "srv --secret_key=abc123", "srv --secret_key=" + R},
		{"api-key-kept", "srv --api-key=K123", "srv --api-key=" + R},
		{"token-kept", "srv --token T456", "srv --token " + R},
		{"password-kept", "srv --password=Z-pass", "srv --password=" + R},
		{"client-secret-kept", "srv --client-secret cs-1", "srv --client-secret " + R},
		{"quoted-flag", `args ["--api_key", "sk-1"]`, `args ["--api_key", "` + R + `"]`},
		{"go-quoted-slice", `exec: ["--api_key" "sk-live-WWWW7777"]`, `exec: ["--api_key" "` + R + `"]`},
		{"single-quoted-list", `['--token', 'tok-XXXX8888', '-v']`, `['--token', '` + R + `', '-v']`},
		{"quoted-flag-equals-quoted", `--password="p4ss-YYYY" --port 3`, `--password="` + R + `" --port 3`},
		{"quoted-flag-space-quoted", `srv --client-secret "cs-ZZZZ9999"`, `srv --client-secret "` + R + `"`},
		{"json-array", `{"args":["--key","k-1234","--port","3"]}`, `{"args":["--key","` + R + `","--port","3"]}`},
		{"quoted-key-file-untouched", `["--key-file", "/etc/k.pem"]`, `["--key-file", "/etc/k.pem"]`},
		{"flag-list-in-prose-untouched", "flags --api_key, --token.", "flags --api_key, --token."},
		{"key-file-is-not-a-key", "srv --key-file /etc/k.pem", "srv --key-file /etc/k.pem"},
		{"word-ending-in-key-untouched", "the monkey-key value", "the monkey-key value"},
		{"keyboard-flag-untouched", "srv --keyboard us", "srv --keyboard us"},
		// query
		{"code-query", "https://h.example/cb?code=qcode-VVVV6666&state=x", "https://h.example/cb?code=" + R + "&state=x"},
		{"code-second-query", "https://h.example/cb?state=x&code=qcode-VVVV6666", "https://h.example/cb?state=x&code=" + R},
		{"codec-query-untouched", "https://h.example/v?codec=h264", "https://h.example/v?codec=h264"},
		{"signature-kept", "https://h.example/f?signature=abc&x=1", "https://h.example/f?signature=" + R + "&x=1"},
		{"sig-kept", "https://h.example/f?sig=abc", "https://h.example/f?sig=" + R},
		{"key-kept", "https://h.example/f?key=abc", "https://h.example/f?key=" + R},
		// URL paths
		{"path-token", "https://actions.example.com/mcp/sk-ak-pathtoken-UUUU5555/sse?code=qcode-VVVV6666",
			"https://actions.example.com/mcp/" + R + "/sse?code=" + R},
		{"path-hex", "https://h.example/hooks/d41d8cd98f00b204e9800998ecf8427e/mcp", "https://h.example/hooks/" + R + "/mcp"},
		{"path-base64ish", "http://127.0.0.1:9000/s/Zm9vYmFyMTIzNDU2Nzg5MA==/mcp", "http://127.0.0.1:9000/s/" + R + "/mcp"},
		{"path-last-segment", "dial https://h.example/mcp/AbC123dEf456GhI789: refused", "dial https://h.example/mcp/" + R + ": refused"},
		{"path-words-untouched", "https://registry.example/@modelcontextprotocol/server-everything/dist/index.js",
			"https://registry.example/@modelcontextprotocol/server-everything/dist/index.js"},
		{"path-version-untouched", "https://h.example/v1.2.3/mcp/2025-06-18", "https://h.example/v1.2.3/mcp/2025-06-18"},
		{"path-long-word-untouched", "https://h.example/model-context-protocol-server/sse", "https://h.example/model-context-protocol-server/sse"},
		{"path-date-untouched", "https://h.example/archive/2025-11-25T10-00-00/mcp", "https://h.example/archive/2025-11-25T10-00-00/mcp"},
		{"file-path-untouched", "node /home/u/sk-ak-pathtoken-UUUU5555/index.js", "node /home/u/sk-ak-pathtoken-UUUU5555/index.js"},
		{"host-untouched", "https://abc123def456ghi789.example.com/mcp", "https://abc123def456ghi789.example.com/mcp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Redact(tt.in); got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
