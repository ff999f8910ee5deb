package handlers_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/mark3labs/mcp-go/server"

	"github.com/switchboard-mcp/switchboard/demoserver"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// demoFixture serves the handlers over a fleet connected, through the real
// MCP client, to our demo server on a real streamable HTTP listener.
func demoFixture(t *testing.T) *fixture {
	t.Helper()
	mcp := httptest.NewServer(server.NewStreamableHTTPServer(demoserver.New(demoserver.Options{})))
	t.Cleanup(mcp.Close)
	f := &fixture{logs: &logBuffer{}, done: make(chan struct{})}
	f.fleet = domain.NewFleet(domain.FleetOptions{SupervisorOptions: domain.SupervisorOptions{
		Connector: mcpclient.New(mcpclient.Options{}),
		Store:     domaintest.NewStore(),
		Scope:     domain.Scope{User: domain.LocalUser, Workspace: "test"},
		Rand:      func() float64 { return 0 },
	}})
	f.echo = handlers.New(handlers.Options{Fleet: f.fleet, Log: f.logs.logger(), Heartbeat: time.Hour, Done: f.done, Token: fixtureToken})
	f.srv = httptest.NewServer(f.echo)
	client := f.srv.Client()
	client.Transport = withToken{next: client.Transport}
	t.Cleanup(func() {
		f.shutdown()
		f.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		if err := f.fleet.Close(ctx); err != nil {
			t.Errorf("close fleet: %v", err)
		}
	})
	f.attach(t, domain.ServerConfig{Name: "demo", Transport: domain.TransportHTTP, URL: mcp.URL + "/mcp",
		ConnectTimeout: patience, StartTimeout: patience})
	waitFor(t, f.fleet.Hub(), "demo", "connected", func(s domain.Status) bool { return s.State == domain.StateConnected })
	return f
}

// capsFragment sends one htmx request (a form body when form is not nil) in
// lang and returns the answer with its body parsed.
func capsFragment(t *testing.T, f *fixture, method, path, lang string, form url.Values) (*http.Response, *goquery.Document) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("HX-Request", "true")
	req.Header.Set("Accept-Language", lang)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return resp, doc
}

// wantFailure checks that an answer is the inline failure message with
// status, marked for the page's script, and returns its text.
func wantFailure(t *testing.T, resp *http.Response, doc *goquery.Document, status int) string {
	t.Helper()
	if resp.StatusCode != status {
		t.Errorf("status: got %d, want %d", resp.StatusCode, status)
	}
	if got := resp.Header.Get("X-Switchboard-Caps"); got != "failure" {
		t.Errorf("X-Switchboard-Caps: got %q, want failure", got)
	}
	msg := doc.Find(`[data-testid="caps-error"][role="alert"]`)
	if msg.Length() != 1 {
		h, _ := doc.Html()
		t.Fatalf("no caps-error alert in %s", h)
	}
	return strings.TrimSpace(msg.Text())
}

func TestReadUIDemoServer(t *testing.T) {
	f := demoFixture(t)

	t.Run("drawer-offers-read-and-get", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "demo"), "en", nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("drawer: got %d", resp.StatusCode)
		}
		reads := doc.Find(`[data-testid="resource-item"] [data-testid="resource-read"]`)
		if reads.Length() != 4 {
			t.Fatalf("resource-read buttons: got %d, want 4", reads.Length())
		}
		readme := reads.Filter(`[data-resource="demo://readme"]`)
		if got, want := readme.AttrOr("hx-get", ""), handlers.UIResourceReadPath("demo", "demo://readme"); got != want {
			t.Errorf("hx-get: got %q, want %q", got, want)
		}
		panel := readme.AttrOr("aria-controls", "")
		if panel == "" || doc.Find("#"+panel).Length() != 1 {
			t.Errorf("the Read button controls %q, which is not in the drawer", panel)
		}
		gets := doc.Find(`[data-testid="prompt-item"] [data-testid="prompt-get"]`)
		if gets.Length() != 2 {
			t.Fatalf("prompt-get buttons: got %d, want 2", gets.Length())
		}
		if got := gets.Filter(`[data-prompt="summarize"]`).AttrOr("aria-label", ""); got != "Get the prompt summarize" {
			t.Errorf("aria-label %q does not name the prompt", got)
		}
	})

	t.Run("read-markdown-is-rendered", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodGet, handlers.UIResourceReadPath("demo", "demo://readme"), "en", nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status: got %d", resp.StatusCode)
		}
		if got := strings.TrimSpace(doc.Find(`[data-testid="resource-read-result"] [data-testid="content-text"]`).Find("h1, h2, h3, h4, h5, h6").First().Text()); got != "Switchboard demo server" {
			h, _ := doc.Html()
			t.Errorf("heading: got %q, want the readme's title in %.600s", got, h)
		}
		if doc.Find(`[data-testid="caps-close"]`).Length() != 1 {
			t.Error("no Close button under the contents")
		}
		if got := resp.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("Cache-Control: got %q, want no-store", got)
		}
	})

	t.Run("read-image-blob-is-an-image", func(t *testing.T) {
		_, doc := capsFragment(t, f, http.MethodGet, handlers.UIResourceReadPath("demo", "demo://logo.png"), "en", nil)
		src := doc.Find(`[data-testid="content-image"]`).AttrOr("src", "")
		if !strings.HasPrefix(src, "data:image/png;base64,") {
			t.Errorf("image src: got %.40q, want a PNG data URI", src)
		}
	})

	t.Run("read-template-uri", func(t *testing.T) {
		_, doc := capsFragment(t, f, http.MethodGet, handlers.UIResourceReadPath("demo", "demo://notes/welcome"), "en", nil)
		if doc.Find(`[data-testid="content-item"]`).Length() != 1 {
			h, _ := doc.Html()
			t.Errorf("the note is not one content item: %s", h)
		}
	})

	t.Run("read-missing-note-is-the-servers-refusal-in-portuguese", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodGet, handlers.UIResourceReadPath("demo", "demo://notes/<b>nope</b>"), "pt-BR", nil)
		msg := wantFailure(t, resp, doc, http.StatusBadGateway)
		if !strings.HasPrefix(msg, "⚠ demo recusou:") {
			t.Errorf("message: got %q, want the Portuguese refusal", msg)
		}
		if doc.Find("b").Length() != 0 {
			t.Error("the server's words were not escaped")
		}
	})

	t.Run("prompt-form-has-one-field-per-argument", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodGet, handlers.UIPromptGetPath("demo", "summarize"), "en", nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status: got %d", resp.StatusCode)
		}
		form := doc.Find(`form[data-testid="prompt-form"]`)
		if got, want := form.AttrOr("hx-post", ""), handlers.UIPromptGetPath("demo", "summarize"); got != want {
			t.Errorf("hx-post: got %q, want %q", got, want)
		}
		inputs := form.Find(`[data-testid="prompt-arg-input"]`)
		if inputs.Length() != 2 {
			t.Fatalf("fields: got %d, want 2 (topic, style)", inputs.Length())
		}
		topic := form.Find(`[data-arg="topic"] input`)
		if _, required := topic.Attr("required"); !required {
			t.Error("topic is required but its field is not")
		}
		id := topic.AttrOr("id", "")
		if form.Find(`label[for="`+id+`"]`).Length() != 1 {
			t.Errorf("no label for %q", id)
		}
		if list := topic.AttrOr("list", ""); form.Find("datalist#"+list).Length() != 1 {
			t.Errorf("no datalist %q for the completions", list)
		}
	})

	t.Run("get-prompt-renders-roles-and-embedded-resource", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodPost, handlers.UIPromptGetPath("demo", "review_code"), "en",
			url.Values{"arg.language": {"go"}})
		if resp.StatusCode != http.StatusOK {
			h, _ := doc.Html()
			t.Fatalf("status: got %d %s", resp.StatusCode, h)
		}
		msgs := doc.Find(`[data-testid="prompt-message"]`)
		var roles []string
		msgs.Each(func(_ int, s *goquery.Selection) {
			roles = append(roles, strings.TrimSpace(s.Find(`[data-testid="prompt-role"]`).Text()))
		})
		if strings.Join(roles, ",") != "User,User,Assistant" {
			t.Errorf("roles: got %q, want User, User, Assistant", roles)
		}
		if msgs.Eq(1).Find(`[data-testid="content-item"][data-type="resource"]`).Length() != 1 {
			t.Error("the second message's embedded snippet is not rendered as a resource")
		}
	})

	t.Run("get-prompt-without-required-argument-is-refused-here", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodPost, handlers.UIPromptGetPath("demo", "summarize"), "zh-Hans", url.Values{"arg.topic": {""}})
		msg := wantFailure(t, resp, doc, http.StatusUnprocessableEntity)
		if !strings.Contains(msg, "请填写必填参数 topic") {
			t.Errorf("message: got %q, want the Chinese request for topic", msg)
		}
	})

	t.Run("template-form-and-read", func(t *testing.T) {
		_, doc := capsFragment(t, f, http.MethodGet, handlers.UITemplatePath("demo", "demo://notes/{id}"), "en", nil)
		form := doc.Find(`form[data-testid="prompt-form"]`)
		if got := form.AttrOr("aria-label", ""); got != "Variables of demo://notes/{id}" {
			t.Errorf("form label: got %q", got)
		}
		if form.Find(`[data-arg="id"] input`).Length() != 1 {
			t.Fatal("no field for the variable id")
		}
		resp, doc := capsFragment(t, f, http.MethodPost, form.AttrOr("hx-post", ""), "en", url.Values{"arg.id": {"welcome"}})
		if resp.StatusCode != http.StatusOK || doc.Find(`[data-testid="resource-read-result"] [data-testid="content-item"]`).Length() != 1 {
			h, _ := doc.Html()
			t.Errorf("read of the welcome note: got %d %s", resp.StatusCode, h)
		}
	})

	t.Run("template-the-server-does-not-list", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodGet, handlers.UITemplatePath("demo", "file:///{path}"), "en", nil)
		wantFailure(t, resp, doc, http.StatusNotFound)
	})

	t.Run("unknown-prompt", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodGet, handlers.UIPromptGetPath("demo", "no such"), "en", nil)
		if msg := wantFailure(t, resp, doc, http.StatusNotFound); !strings.Contains(msg, "no longer offers this") {
			t.Errorf("message: got %q", msg)
		}
	})
}

func TestReadUIEverything(t *testing.T) {
	f := everythingFixture(t)

	t.Run("read-dynamic-text", func(t *testing.T) {
		_, doc := capsFragment(t, f, http.MethodGet, handlers.UIResourceReadPath("everything", "demo://resource/dynamic/text/1"), "en", nil)
		if got := doc.Find(`[data-testid="content-text"]`).Text(); !strings.Contains(got, "Resource 1:") {
			t.Errorf("text: got %q, want resource 1", got)
		}
	})

	t.Run("read-unknown-uri", func(t *testing.T) {
		resp, doc := capsFragment(t, f, http.MethodGet, handlers.UIResourceReadPath("everything", "demo://no/such/thing"), "en", nil)
		if msg := wantFailure(t, resp, doc, http.StatusBadGateway); !strings.Contains(msg, "everything refused:") || !strings.Contains(msg, "demo://no/such/thing") {
			t.Errorf("message: got %q, want the server's refusal naming the URI", msg)
		}
	})

	for _, tc := range []struct {
		name  string
		query url.Values
		want  string
	}{
		{"complete-department", url.Values{"complete": {"department"}, "arg.department": {"S"}}, "Sales,Support"},
		{"complete-name-in-context", url.Values{"complete": {"name"}, "arg.department": {"Sales"}, "arg.name": {""}}, "David,Eve,Frank"},
		{"complete-unknown-argument-is-empty", url.Values{"complete": {"nope"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := handlers.UIPromptCompletePath("everything", "completable-prompt") + "?" + tc.query.Encode()
			resp, doc := capsFragment(t, f, http.MethodGet, path, "en", nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status: got %d", resp.StatusCode)
			}
			var got []string
			doc.Find("option").Each(func(_ int, s *goquery.Selection) { got = append(got, s.AttrOr("value", "")) })
			if strings.Join(got, ",") != tc.want {
				t.Errorf("options: got %q, want %q", got, tc.want)
			}
		})
	}

	t.Run("form-fields-ask-for-completions", func(t *testing.T) {
		_, doc := capsFragment(t, f, http.MethodGet, handlers.UIPromptGetPath("everything", "completable-prompt"), "en", nil)
		in := doc.Find(`[data-arg="department"] input`)
		want := handlers.UIPromptCompletePath("everything", "completable-prompt") + "?complete=department"
		if got := in.AttrOr("hx-get", ""); got != want {
			t.Errorf("hx-get: got %q, want %q", got, want)
		}
		if got := in.AttrOr("hx-include", ""); got != "closest form" {
			t.Errorf("hx-include: got %q, want the whole form as context", got)
		}
	})

	t.Run("template-completions", func(t *testing.T) {
		const tmpl = "demo://resource/dynamic/text/{resourceId}"
		_, doc := capsFragment(t, f, http.MethodGet, handlers.UITemplatePath("everything", tmpl), "en", nil)
		in := doc.Find(`[data-arg="resourceId"] input`)
		path := in.AttrOr("hx-get", "")
		if path == "" {
			t.Fatal("the variable's field asks for no completions")
		}
		_, doc = capsFragment(t, f, http.MethodGet, path+"&arg.resourceId=7", "en", nil)
		if got := doc.Find("option").AttrOr("value", ""); got != "7" {
			t.Errorf("completion: got %q, want 7", got)
		}
	})

	t.Run("get-args-prompt", func(t *testing.T) {
		_, doc := capsFragment(t, f, http.MethodPost, handlers.UIPromptGetPath("everything", "args-prompt"), "en",
			url.Values{"arg.city": {"Lisbon"}, "arg.state": {"Lisboa"}})
		msg := doc.Find(`[data-testid="prompt-message"][data-role="user"] [data-testid="content-text"]`)
		if got := strings.TrimSpace(msg.Text()); got != "What's weather in Lisbon, Lisboa?" {
			t.Errorf("message: got %q, want the weather question", got)
		}
	})
}
