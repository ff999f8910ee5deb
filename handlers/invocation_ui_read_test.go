package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// linkedURI is the resource the call's result links to; the server no
// longer has it, as after a restart of server-everything.
const linkedURI = "demo://resource/session/7"

// linkCall runs one call whose result is a resource_link to linkedURI and
// returns its id.
func linkCall(t *testing.T, f *invFixture) string {
	t.Helper()
	f.sess.OnCall(func(context.Context, string, json.RawMessage, func(domain.Progress)) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"resource_link","uri":"` + linkedURI + `","name":"seven"}]}`), nil
	})
	sub := f.svc.Feed().Subscribe(testScope)
	defer sub.Close()
	status, body := f.post(t, handlers.ToolCallPath("demo", "echo"), `{}`)
	if status != http.StatusAccepted {
		t.Fatalf("call: got %d %s", status, body)
	}
	id := decode[handlers.InvocationDTO](t, body).ID
	f.waitInvocation(t, sub, id, domain.InvocationSuccess)
	return id
}

// preview GETs the resource link's preview in lang and returns the
// response with its body read.
func preview(t *testing.T, f *invFixture, id, lang string) (*http.Response, []byte) {
	t.Helper()
	path := handlers.InvocationPath(handlers.PathUIInvocationRead, id) + "?" + url.Values{"uri": {linkedURI}}.Encode()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Language", lang)
	req.Header.Set("HX-Request", "true")
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// toastText returns the toast's message and code, failing unless the
// answer is a toast for the page's alert region.
func toastText(t *testing.T, resp *http.Response, body []byte) (string, string) {
	t.Helper()
	if got := resp.Header.Get("HX-Retarget"); got != "#toast" {
		t.Errorf("HX-Retarget: got %q, want #toast", got)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	msg := doc.Find(`[data-testid="toast-message"]`)
	if msg.Length() != 1 {
		t.Fatalf("no toast in %d %s", resp.StatusCode, body)
	}
	code, _ := msg.Attr("data-code")
	return strings.TrimSpace(msg.Find("p").Text()), code
}

// A server's refusal of one read shows the server's own words, escaped,
// rather than "internal error". (That the refusal leaves the connection up
// is mcpclient's to prove, against a real server.)
func TestPreviewShowsServerRefusal(t *testing.T) {
	f := newInvFixture(t)
	id := linkCall(t, f)
	serverMsg := "Resource " + linkedURI + " not found <script>alert(1)</script>"
	f.sess.OnRead(func(_ context.Context, uri string) (json.RawMessage, error) {
		return nil, &domain.ServerError{Code: -32602, Message: serverMsg}
	})
	tests := []struct{ lang, want string }{
		{"en", "demo could not show this resource. The server says: " + serverMsg},
		{"pt-BR", "demo não conseguiu mostrar este recurso. O servidor diz: " + serverMsg},
		{"zh-Hans", "demo 无法显示此资源。服务器返回：" + serverMsg},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			resp, body := preview(t, f, id, tt.lang)
			if resp.StatusCode != http.StatusBadGateway {
				t.Errorf("status: got %d, want %d; body: %s", resp.StatusCode, http.StatusBadGateway, body)
			}
			text, code := toastText(t, resp, body)
			if text != tt.want || code != "server_error" {
				t.Errorf("toast: got %q (%s), want %q (server_error)", text, code, tt.want)
			}
			if bytes.Contains(body, []byte("<script>")) {
				t.Errorf("the server's message is not escaped: %s", body)
			}
		})
	}
}

// Other failures still say something a person can act on, in a toast.
func TestPreviewFailureToasts(t *testing.T) {
	f := newInvFixture(t)
	id := linkCall(t, f)
	tests := []struct {
		name       string
		err        error
		wantStatus int
		want       string
	}{
		{"not-connected", fmt.Errorf("read: %w", domain.ErrNotConnected), http.StatusConflict,
			"demo is not connected, so this resource cannot be read now."},
		{"unexplained", errors.New("/secret/path exploded"), http.StatusInternalServerError,
			"This resource could not be read from demo: the read failed before an answer arrived. Try again."},
		{"long-message", &domain.ServerError{Message: "line one\nline\u202e two " + strings.Repeat("x", 600)}, http.StatusBadGateway,
			"demo could not show this resource. The server says: line one line two " + strings.Repeat("x", 500-len("line one line two ")) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.sess.OnRead(func(context.Context, string) (json.RawMessage, error) { return nil, tt.err })
			resp, body := preview(t, f, id, "en")
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status: got %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if text, _ := toastText(t, resp, body); text != tt.want {
				t.Errorf("toast: got %q, want %q", text, tt.want)
			}
		})
	}
}
