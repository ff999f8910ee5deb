package handlers_test

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/handlers"
)

func TestPresetPersistsAndShowsOnThePage(t *testing.T) {
	store := newPrefStore()
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })
	page := func() *goquery.Document {
		_, body := f.do(t, http.MethodGet, handlers.PathDashboard, nil)
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	doc := page()
	if got := doc.Find("html").AttrOr("data-preset", ""); got != "material3" {
		t.Errorf("default preset: got %q, want material3", got)
	}
	if got := doc.Find(`[data-testid="preset-select"] option`).Length(); got != 7 {
		t.Errorf("preset options: got %d, want 7", got)
	}
	resp := f.postForm(t, url.Values{"preset": {"terminal_classic"}}, http.Header{"HX-Request": {"true"}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("HX-Refresh") != "true" {
		t.Fatalf("save: got %d HX-Refresh %q, want 200 true", resp.StatusCode, resp.Header.Get("HX-Refresh"))
	}
	if got := store.get("preset"); got != "terminal_classic" {
		t.Errorf("stored preset: got %q, want terminal_classic", got)
	}
	doc = page()
	if got := doc.Find("html").AttrOr("data-preset", ""); got != "terminal_classic" {
		t.Errorf("page preset: got %q, want terminal_classic", got)
	}
	if got := doc.Find(`[data-testid="preset-select"] option[selected]`).AttrOr("value", ""); got != "terminal_classic" {
		t.Errorf("selected preset: got %q, want terminal_classic", got)
	}
	if got := doc.Find("html").AttrOr("data-theme", ""); got != "system" {
		t.Errorf("theme untouched: got %q, want system", got)
	}
}

func TestPresetRefusesUnknownValues(t *testing.T) {
	store := newPrefStore()
	f := newFixture(t, func(o *handlers.Options) { o.Preferences = store })
	resp := f.postForm(t, url.Values{"preset": {"comic_sans"}}, http.Header{"HX-Request": {"true"}})
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("status: got %d, want 422", resp.StatusCode)
	}
	if got := store.get("preset"); got != "" {
		t.Errorf("stored: got %q, want nothing", got)
	}
}
