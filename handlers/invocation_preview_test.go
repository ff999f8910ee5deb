package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// A large result reaches open pages as its card's preview, while the JSON
// stream, Show the full text and Copy give the whole, read from the store.
func TestLargeResultPagesGetThePreviewStreamsAndCopiesTheWhole(t *testing.T) {
	f := newInvFixture(t)
	text := strings.Repeat("0123456789", 200_000) + "THE-END"
	f.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	})
	api := f.openEvents(t)
	api.until(t, "the demo status", func(fr sseFrame) bool { return fr.Event == "status" })
	page := f.openPageEvents(t, nil)
	page.until(t, "the empty list", func(fr sseFrame) bool {
		return fr.Event == "status" && fragment(t, fr).Find(`#calls-list[hx-swap-oob]`).Length() == 1
	})
	_, body := f.post(t, handlers.ToolCallPath("demo", "echo"), `{}`)
	inv := decode[handlers.InvocationDTO](t, body)

	final, _ := api.until(t, "the call's success on the JSON stream", func(fr sseFrame) bool {
		return fr.Event == "invocation" && decode[handlers.InvocationDTO](t, []byte(fr.Data)).Status == "success"
	})
	if !strings.Contains(final.Data, "THE-END") {
		t.Errorf("the JSON stream's final frame holds %d bytes, want the whole result", len(final.Data))
	}
	card, _ := page.until(t, "the open card's content as done", func(fr sseFrame) bool {
		return fr.Event == "call-"+inv.ID && fragment(t, fr).Find(`[data-status="success"]`).Length() > 0
	})
	if len(card.Data) > 512<<10 || strings.Contains(card.Data, "THE-END") {
		t.Errorf("the page's card is %d bytes, want a preview without the text's end", len(card.Data))
	}
	full := fragment(t, card).Find(`[data-testid="content-text"]`).First()
	if full.Length() == 0 {
		t.Fatalf("no text item on the card: %.500s", card.Data)
	}
	status, item := f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathUIInvocation, inv.ID)+"?item=0", nil)
	if status != http.StatusOK || !strings.Contains(string(item), "THE-END") {
		t.Errorf("the full text: got %d, %d bytes; want 200 and the whole text", status, len(item))
	}
	_, copied := f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathUIInvocationCopy, inv.ID)+"?part=result", nil)
	if string(copied) != text {
		t.Errorf("copy: got %d bytes, want the whole %d", len(copied), len(text))
	}
}
