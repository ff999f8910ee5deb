package views_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestSplitTarget(t *testing.T) {
	tests := []struct{ name, in, head, tail string }{
		{"short-stays-whole", "uvx mcp-server-git", "uvx mcp-server-git", ""},
		{"tail-starts-at-a-separator", "/usr/bin/node /home/u/proj/node_modules/@modelcontextprotocol/server-memory/dist/index.js",
			"/usr/bin/node /home/u/proj/node_modules/@modelcontextprotocol", "/server-memory/dist/index.js"},
		{"no-separator-cuts-runes", strings.Repeat("a", 20) + strings.Repeat("é", 30), strings.Repeat("a", 20) + "éé", strings.Repeat("é", 28)},
		{"url", "https://mcp.example.com/v1/organisations/acme/servers/search/sse",
			"https://mcp.example.com/v1/organisations", "/acme/servers/search/sse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, tail := views.SplitTarget(tt.in)
			if head != tt.head || tail != tt.tail {
				t.Errorf("got %q + %q, want %q + %q", head, tail, tt.head, tt.tail)
			}
			if head+tail != tt.in {
				t.Errorf("the parts %q + %q lose text of %q", head, tail, tt.in)
			}
		})
	}
}

func TestServerListSortsFailingFirstThenByName(t *testing.T) {
	list := []domain.Status{
		{ServerName: "alpha", State: domain.StateConnected},
		{ServerName: "bravo", State: domain.StateDisabled},
		{ServerName: "charlie", State: domain.StateError},
		{ServerName: "delta", State: domain.StateConnecting},
		{ServerName: "echo", State: domain.StateError},
	}
	doc := render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, List: list}))
	var got []string
	doc.Find(`[data-testid="server-row"]`).Each(func(_ int, s *goquery.Selection) {
		got = append(got, s.AttrOr("data-server", "")+":"+s.AttrOr("data-group", "")+":"+s.AttrOr("data-rank", ""))
	})
	want := []string{"charlie:failing:0", "echo:failing:0", "delta:starting:2", "alpha:connected:3", "bravo:disabled:4"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("rows: got %v, want %v", got, want)
	}
}

func TestHeaderSummaryCountsAndFilters(t *testing.T) {
	list := []domain.Status{
		{ServerName: "a", State: domain.StateConnected},
		{ServerName: "b", State: domain.StateConnected},
		{ServerName: "c", State: domain.StateError},
		{ServerName: "d", State: domain.StateConnecting},
	}
	doc := render(t, "pt-BR", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, List: list, ServerFilter: "failing"}))
	sum := doc.Find(`[data-testid="header"] nav[data-testid="header-summary"][aria-label]`)
	if sum.Length() != 1 {
		t.Fatalf("no labelled summary in the header")
	}
	var got []string
	sum.Find("a.sum-link").Each(func(_ int, a *goquery.Selection) {
		got = append(got, a.AttrOr("href", "")+"="+a.Find(".sum-long").Text()+"/"+strings.TrimSpace(a.Find(".sum-short").Text()))
	})
	want := []string{"?=4 servidores/4", "?state=connected=2 conectados/2", "?state=failing=1 com falha/1", "?state=starting=1 iniciando/1"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("summary: got %v, want %v", got, want)
	}
	if got, _ := sum.Find(`[aria-current="true"]`).Attr("data-group"); got != "failing" {
		t.Errorf("current link: got %q, want failing", got)
	}
	if got, _ := doc.Find(`[data-testid="servers"]`).Attr("data-state-filter"); got != "failing" {
		t.Errorf("list filter: got %q, want failing", got)
	}
	if got, _ := sum.Find(`.sum-short`).First().Attr("aria-hidden"); got != "true" {
		t.Errorf("the short numbers are not hidden from screen readers")
	}
	unknown := render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, List: list, ServerFilter: "<b>"}))
	if got, _ := unknown.Find(`[data-testid="servers"]`).Attr("data-state-filter"); got != "" {
		t.Errorf("an unknown filter: got %q, want none", got)
	}
}

func TestServerFilterBoxAboveTenServers(t *testing.T) {
	for _, n := range []int{views.FilterAbove, views.FilterAbove + 1} {
		var list []domain.Status
		for i := range n {
			list = append(list, domain.Status{ServerName: fmt.Sprintf("s%02d", i), State: domain.StateConnected})
		}
		doc := render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, List: list}))
		box := doc.Find(`#server-filter-box`)
		_, hidden := box.Attr("hidden")
		if hidden != (n <= views.FilterAbove) {
			t.Errorf("%d servers: filter box hidden %v", n, hidden)
		}
		if box.Find(`input[type="search"][data-testid="server-filter"]`).Length() != 1 || doc.Find(`label[for="server-filter"]`).Length() != 1 {
			t.Errorf("%d servers: no labelled filter box", n)
		}
	}
}

func TestServerRowShortensTargetInTheMiddle(t *testing.T) {
	target := "/usr/bin/node /home/u/proj/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
	doc := render(t, "en", views.NewPageProps(views.PageInput{URLs: testURLs, Now: testNow, List: []domain.Status{
		{ServerName: "memory", State: domain.StateConnected, Target: target, ToolCount: 13, ResourceCount: 7, PromptCount: 4},
	}}))
	code := doc.Find(`[data-testid="row-target"]`)
	if got := code.AttrOr("title", ""); got != target {
		t.Errorf("title: got %q, want the whole target", got)
	}
	if got := code.Text(); got != target {
		t.Errorf("text: got %q, want the whole target", got)
	}
	if got := code.Find(".target-tail").Text(); got != "/server-memory/dist/index.js" {
		t.Errorf("tail: got %q", got)
	}
	if got := doc.Find(`[data-testid="row-counts"] .cap-count`).Length(); got != 3 {
		t.Errorf("counts: got %d, want 3", got)
	}
}
