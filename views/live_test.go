package views_test

import (
	"context"
	"io"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestServerUpdateSwapsRowAndSummaryFromOneSnapshot(t *testing.T) {
	s := domain.Status{ServerName: "files", State: domain.StateError, Error: "boom", ErrorCategory: domain.CategoryRefused}
	other := domain.Status{ServerName: "b", State: domain.StateConnected}
	u := views.NewServerUpdateProps(s, testNow, "/d").WithSummary(map[string]domain.Status{other.ServerName: other, s.ServerName: s})
	doc := renderFragment(t, "en", views.ServerUpdate(u))
	key := views.ServerKey("files")
	for _, id := range []string{"row-" + key, "header-summary"} {
		el := doc.Find("#" + id)
		if el.Length() != 1 {
			t.Fatalf("#%s: got %d elements, want 1", id, el.Length())
		}
		if got, _ := el.Attr("hx-swap-oob"); got != "outerHTML" {
			t.Errorf("#%s hx-swap-oob: got %q, want outerHTML", id, got)
		}
	}
	if got := doc.Find(`[data-testid="status-chip"][data-state="error"]`).Length(); got != 1 {
		t.Errorf("error chips: got %d, want 1 (the row's; the header has none)", got)
	}
	if got := doc.Find(`#summary-failing .sum-long`).Text(); got != "1 failing" {
		t.Errorf("summary failing: got %q, want 1 failing", got)
	}
	if got, _ := doc.Find("#row-" + key).Attr("data-group"); got != "failing" {
		t.Errorf("row group: got %q, want failing", got)
	}
	// The row's own chip is swapped with its row, not on its own.
	if _, ok := doc.Find("#row-" + key + ` [data-testid="status-chip"]`).Attr("hx-swap-oob"); ok {
		t.Errorf("the row's chip carries its own hx-swap-oob")
	}
	if doc.Find("#header-summary").Length() != 1 || renderFragment(t, "en", views.ServerUpdate(views.NewServerUpdateProps(s, testNow, "/d"))).Find("#header-summary").Length() != 0 {
		t.Errorf("only an update WithSummary carries the summary")
	}
}

func TestFullStateReplacesSummaryAndList(t *testing.T) {
	list := []domain.Status{{ServerName: "a", State: domain.StateConnected}, {ServerName: "b", State: domain.StateDisabled}}
	doc := renderComponent(t, "en", views.FullState(views.NewFullStateProps(list, testNow, nil)))
	for _, sel := range []string{`#header-summary[data-testid="header-summary"]`, `#server-list[data-testid="server-list"]`} {
		if got, _ := doc.Find(sel).Attr("hx-swap-oob"); got != "outerHTML" {
			t.Errorf("%s hx-swap-oob: got %q, want outerHTML", sel, got)
		}
	}
	if got := doc.Find(`#header-summary [data-testid="status-chip"]`).Length(); got != 0 {
		t.Errorf("summary chips: got %d, want none", got)
	}
	if got := doc.Find(`#header-summary .sum-long`).Text(); got != "2 servers1 connected0 failing1 disabled" {
		t.Errorf("summary: got %q", got)
	}
	if got := doc.Find(`[data-testid="server-row"]`).Length(); got != 2 {
		t.Errorf("rows: got %d, want 2", got)
	}
	empty := renderComponent(t, "en", views.FullState(views.NewFullStateProps(nil, testNow, nil)))
	if empty.Find(`[data-testid="no-servers"]`).Length() != 1 {
		t.Errorf("an empty full state lacks the no-servers text")
	}
}

// renderFragment parses c as htmx does an out-of-band payload: inside a
// <template>, where a lone <tr> is allowed.
func renderFragment(t *testing.T, lang string, c templ.Component) *goquery.Document {
	t.Helper()
	wrapped := templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if _, err := io.WriteString(w, "<template>"); err != nil {
			return err
		}
		if err := c.Render(ctx, w); err != nil {
			return err
		}
		_, err := io.WriteString(w, "</template>")
		return err
	})
	return renderComponent(t, lang, wrapped)
}
