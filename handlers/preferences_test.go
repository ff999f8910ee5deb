package handlers_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// prefStore is a domain.PreferenceStore in memory.
type prefStore struct {
	mu   sync.Mutex // guards vals and err
	vals map[string]string
	err  error
}

var _ domain.PreferenceStore = (*prefStore)(nil)

func newPrefStore() *prefStore { return &prefStore{vals: map[string]string{}} }

func (s *prefStore) Preferences(ctx context.Context, user string) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if user != domain.LocalUser {
		return map[string]string{}, nil
	}
	out := map[string]string{}
	for k, v := range s.vals {
		out[k] = v
	}
	return out, s.err
}

func (s *prefStore) SetPreference(ctx context.Context, user, key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.vals[key] = value
	return nil
}

func (s *prefStore) set(key, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vals[key] = value
}

func (s *prefStore) get(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vals[key]
}

// postForm posts form to PathUIPreferences without following redirects.
func (f *fixture) postForm(t *testing.T, form url.Values, header http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.srv.URL+handlers.PathUIPreferences, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, vs := range header {
		req.Header[k] = vs
	}
	client := *f.srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("POST preferences: %v", err)
	}
	resp.Body.Close()
	return resp
}

func TestPreferencesPersistAndShape(t *testing.T) {
	store := newPrefStore()
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })

	resp := f.postForm(t, url.Values{"theme": {"dark"}, "lang": {"zh-Hans"}}, http.Header{"HX-Request": {"true"}})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("HX-Refresh") != "true" {
		t.Errorf("htmx post: got %d HX-Refresh %q, want 200 and true", resp.StatusCode, resp.Header.Get("HX-Refresh"))
	}
	if got := store.get("theme") + "," + store.get("lang"); got != "dark,zh-Hans" {
		t.Errorf("stored: got %s, want dark,zh-Hans", got)
	}

	resp = f.postForm(t, url.Values{"theme": {"light"}}, nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != handlers.PathDashboard {
		t.Errorf("plain post: got %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}

	_, body := f.do(t, http.MethodGet, handlers.PathDashboard, http.Header{"Accept-Language": {"pt-BR"}})
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	html := doc.Find("html")
	if got, _ := html.Attr("data-theme"); got != "light" {
		t.Errorf("data-theme: got %q, want light", got)
	}
	if got, _ := html.Attr("lang"); got != "zh-Hans" {
		t.Errorf("lang: got %q, want the stored zh-Hans over Accept-Language", got)
	}
	if got, _ := doc.Find(`[data-testid="theme-toggle"] option[selected]`).Attr("value"); got != "light" {
		t.Errorf("theme toggle selection: got %q, want light", got)
	}
}

func TestPreferencesRefuseBadValues(t *testing.T) {
	store := newPrefStore()
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })
	tests := []struct {
		name   string
		form   url.Values
		status int
	}{
		{"nothing", url.Values{}, http.StatusBadRequest},
		{"unknown theme", url.Values{"theme": {"neon"}}, http.StatusUnprocessableEntity},
		{"unknown language", url.Values{"lang": {"ko"}}, http.StatusUnprocessableEntity},
		{"one bad value refuses both", url.Values{"theme": {"dark"}, "lang": {"<script>"}}, http.StatusUnprocessableEntity},
	}
	for _, tt := range tests {
		if resp := f.postForm(t, tt.form, nil); resp.StatusCode != tt.status {
			t.Errorf("%s: got %d, want %d", tt.name, resp.StatusCode, tt.status)
		}
	}
	if got := store.get("theme"); got != "" {
		t.Errorf("a refused post stored theme %q", got)
	}
}

func TestPreferencesWithoutStoreUseCookies(t *testing.T) {
	f := newFixture(t)
	resp := f.postForm(t, url.Values{"theme": {"dark"}, "lang": {"pt-BR"}}, nil)
	var cookies []string
	for _, c := range resp.Cookies() {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	_, body := f.do(t, http.MethodGet, handlers.PathDashboard, http.Header{"Cookie": {strings.Join(cookies, "; ")}})
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if got, _ := doc.Find("html").Attr("data-theme"); got != "dark" {
		t.Errorf("data-theme from cookie: got %q, want dark", got)
	}
	if got, _ := doc.Find("html").Attr("lang"); got != "pt-BR" {
		t.Errorf("lang from cookie: got %q, want pt-BR", got)
	}
}

func TestPreferencesStoreFailure(t *testing.T) {
	store := newPrefStore()
	store.err = errors.New("disk full")
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })
	if resp := f.postForm(t, url.Values{"theme": {"dark"}}, nil); resp.StatusCode != http.StatusInternalServerError {
		t.Errorf("save with a failing store: got %d, want 500", resp.StatusCode)
	}
	if status, _ := f.do(t, http.MethodGet, handlers.PathDashboard, nil); status != http.StatusOK {
		t.Errorf("page with a failing store: got %d, want 200 with defaults", status)
	}
}

func TestPreferencesRefuseForeignOrigin(t *testing.T) {
	store := newPrefStore()
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })
	resp := f.postForm(t, url.Values{"theme": {"dark"}}, http.Header{"Origin": {"http://evil.example"}})
	if resp.StatusCode != http.StatusForbidden || store.get("theme") != "" {
		t.Errorf("cross-origin post: got %d, stored %q; want 403 and nothing stored", resp.StatusCode, store.get("theme"))
	}
}
