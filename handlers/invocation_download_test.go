package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// deepResultCall runs one call whose result nests 5000 deep and returns
// its id and the result as the server sent it.
func deepResultCall(t *testing.T) (*invFixture, string, string) {
	t.Helper()
	f := newInvFixture(t)
	result := `{"content":[],"structuredContent":` + strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000) + `}`
	f.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(result), nil
	})
	sub := f.svc.Feed().Subscribe(testScope)
	defer sub.Close()
	status, body := f.post(t, handlers.ToolCallPath("demo", "echo"), `{"message":"deep"}`)
	if status != http.StatusAccepted {
		t.Fatalf("call: got %d %s", status, body)
	}
	id := decode[handlers.InvocationDTO](t, body).ID
	f.waitInvocation(t, sub, id, domain.InvocationSuccess)
	return f, id, result
}

// TestDeepResultCardLinksTheRawDownload: M5. The card of a result nested
// 5000 deep stays small, says it is too large to show and links to the
// download, which answers the result byte for byte as a file.
func TestDeepResultCardLinksTheRawDownload(t *testing.T) {
	f, id, result := deepResultCall(t)
	status, card := f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathUIInvocation, id), nil)
	if status != http.StatusOK || len(card) > 1<<20 {
		t.Fatalf("card: got %d with %d bytes, want 200 and at most 1 MB", status, len(card))
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(card))
	if err != nil {
		t.Fatal(err)
	}
	href, ok := doc.Find(`.content-structured-wrap [data-testid="content-too-large"] a[download]`).Attr("href")
	want := handlers.InvocationPath(handlers.PathUIInvocationCopy, id) + "?" + url.Values{"part": {"result"}, "download": {"1"}}.Encode()
	if !ok || href != want {
		t.Fatalf("download link: got %q, want %q", href, want)
	}

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.srv.URL+href, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got bytes.Buffer
	_, _ = got.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK || got.String() != result {
		t.Errorf("download: got %d with %d bytes, want 200 and the %d bytes sent", resp.StatusCode, got.Len(), len(result))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("download Content-Type: got %q, want application/json", ct)
	}
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="invocation-`+id+`-result.json"` {
		t.Errorf("download Content-Disposition: got %q", cd)
	}
}

// TestDeepResultCopiesCompact: Copy still answers the whole result, but
// as stored rather than indented 5000 levels deep (50 MB).
func TestDeepResultCopiesCompact(t *testing.T) {
	f, id, result := deepResultCall(t)
	path := handlers.InvocationPath(handlers.PathUIInvocationCopy, id) + "?part=result"
	status, body := f.do(t, http.MethodGet, path, nil)
	if status != http.StatusOK || string(body) != result {
		t.Errorf("copy: got %d with %d bytes, want 200 and the %d bytes sent", status, len(body), len(result))
	}
	status, body = f.do(t, http.MethodGet, handlers.InvocationPath(handlers.PathUIInvocationCopy, id)+"?part=arguments", nil)
	if want := "{\n  \"message\": \"deep\"\n}"; status != http.StatusOK || string(body) != want {
		t.Errorf("copy arguments: got %d %q, want 200 %q", status, body, want)
	}
}
