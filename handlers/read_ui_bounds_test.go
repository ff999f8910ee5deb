package handlers_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// hostileFixture connects one server whose answers the test writes: what
// a hostile or careless server could send, which no real server we run
// sends on purpose.
func hostileFixture(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	caps := domain.Capabilities{
		Resources: []domain.Resource{{URI: "evil://page", Name: "page"}},
		Prompts:   []domain.Prompt{{Name: "chat", Arguments: []domain.PromptArgument{{Name: "q"}}}},
	}
	sess := f.connect(t, stdio("evil"), caps)
	huge := strings.Repeat("<script>alert(1)</script> ", 40_000) // ~1 MB of text
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 2<<20)...)
	blob := base64.StdEncoding.EncodeToString(png)
	sess.OnRead(func(_ context.Context, uri string) (json.RawMessage, error) {
		contents := []map[string]any{
			{"uri": uri, "mimeType": "text/html", "text": huge},
			{"uri": uri, "mimeType": "text/markdown", "text": "[x](javascript:alert(1)) <img src=x onerror=alert(1)>"},
			{"uri": uri, "mimeType": "image/png", "blob": blob},
		}
		return json.Marshal(map[string]any{"contents": contents})
	})
	sess.OnGetPrompt(func(_ context.Context, _ string, args map[string]string) (json.RawMessage, error) {
		msgs := []map[string]any{}
		for range 150 {
			msgs = append(msgs, map[string]any{"role": "<b>boss</b>", "content": map[string]any{"type": "text", "text": args["q"]}})
		}
		return json.Marshal(map[string]any{"description": "<i>d</i>", "messages": msgs})
	})
	return f
}

func TestReadUIHostileServer(t *testing.T) {
	f := hostileFixture(t)

	t.Run("read-is-bounded-and-escaped", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodGet, handlers.UIResourceReadPath("evil", "evil://page"), "en", nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status: got %d", resp.StatusCode)
		}
		h, _ := doc.Html()
		if len(h) > 400<<10 {
			t.Errorf("fragment is %d bytes, want it bounded", len(h))
		}
		if doc.Find("script, img[onerror], a[href^='javascript']").Length() != 0 {
			t.Error("hostile markup survived")
		}
		if got := doc.Find(`[data-testid="content-refused"]`).Text(); !strings.Contains(got, "too large to show here") {
			t.Errorf("the 2 MB image: got %q, want it refused in words", got)
		}
		if got := doc.Find(`[data-testid="caps-download"]`).AttrOr("href", ""); got != handlers.ResourceReadPath("evil", "evil://page") {
			t.Errorf("download: got %q, want the whole answer's JSON", got)
		}
	})

	t.Run("prompt-messages-are-bounded-and-escaped", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodPost, handlers.UIPromptGetPath("evil", "chat"), "en",
			url.Values{"arg.q": {"<script>alert(1)</script>"}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status: got %d", resp.StatusCode)
		}
		if got := doc.Find(`[data-testid="prompt-message"]`).Length(); got != 100 {
			t.Errorf("messages: got %d, want the first 100", got)
		}
		if doc.Find("script, b, i").Length() != 0 {
			t.Error("hostile markup survived in a role, the description or a message")
		}
		if got := doc.Find(`[data-testid="prompt-role"]`).First().Text(); !strings.Contains(got, "Role: <b>boss</b>") {
			t.Errorf("role: got %q, want the unknown role named as text", got)
		}
		if got := doc.Find(`.inv-note`).First().Text(); !strings.Contains(got, "50 more messages") {
			t.Errorf("note: got %q, want the 50 left out counted", got)
		}
	})
}
