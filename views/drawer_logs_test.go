package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func sampleLogs() []domain.ServerLog {
	at := testNow.Add(-5 * time.Second)
	return []domain.ServerLog{
		{Seq: 1, At: at, Level: "info", Logger: "db", Text: "connected"},
		{Seq: 2, At: at, Level: "warning", Text: `<script>alert(1)</script> token=[redacted]`},
		{Seq: 3, At: at, Level: "verbose", Logger: "x", Text: "long", Truncated: true},
	}
}

func TestDrawerLogsNewestFirstAndEscaped(t *testing.T) {
	p := views.NewDrawerLogsProps("files", sampleLogs(), 3, 200, "", "/ui/servers/files/logs/level", testNow)
	doc := renderDrawerPart(t, "en", views.DrawerLogs(p))

	sec := doc.Find(`[data-testid="drawer-logs"]`)
	if sec.Length() != 1 || sec.AttrOr("aria-labelledby", "") != p.HeadingID {
		t.Fatalf("got %d log sections, want one labelled by its heading", sec.Length())
	}
	if got := doc.Find(`[data-testid="log-list-wrap"]`).AttrOr("data-seq", ""); got != "3" {
		t.Errorf("got data-seq %q, want 3", got)
	}
	entries := doc.Find(`[data-testid="log-entry"]`)
	if entries.Length() != 3 {
		t.Fatalf("got %d entries, want 3", entries.Length())
	}
	wantLevels := []string{"other", "warning", "info"} // newest first
	wantWords := []string{"verbose", "Warning", "Info"}
	for i := range 3 {
		e := entries.Eq(i)
		if got := e.AttrOr("data-level", ""); got != wantLevels[i] {
			t.Errorf("entry %d: got data-level %q, want %q", i, got, wantLevels[i])
		}
		if got := strings.TrimSpace(e.Find(`[data-testid="log-level-word"]`).Text()); got != wantWords[i] {
			t.Errorf("entry %d: got level word %q, want %q", i, got, wantWords[i])
		}
		if e.Find("time[data-time][datetime]").Length() != 1 {
			t.Errorf("entry %d: no time the page script keeps current", i)
		}
	}
	if doc.Find("script").Length() != 0 {
		t.Error("a server's text became a script element, want it escaped")
	}
	warning := entries.Eq(1).Find(`[data-testid="log-data"]`).Text()
	if !strings.Contains(warning, "<script>") {
		t.Errorf("got %q, want the markup as text", warning)
	}
	list := doc.Find(`[data-testid="log-list"]`)
	if list.AttrOr("id", "") != views.DrawerLogItemsID("files") || list.AttrOr("data-cap", "") != "200" {
		t.Errorf("got list id %q cap %q, want the items id and the kept count", list.AttrOr("id", ""), list.AttrOr("data-cap", ""))
	}
	if got := entries.Eq(0).AttrOr("data-seq", ""); got != "3" {
		t.Errorf("got newest data-seq %q, want 3", got)
	}
	if entries.Eq(0).Find(`[data-testid="log-cut"]`).Length() != 1 || entries.Eq(1).Find(`[data-testid="log-logger"]`).Length() != 0 {
		t.Error("want the cut mark on the truncated entry only, and no logger where none was named")
	}
}

func TestDrawerLogsEmptyAndLevelForm(t *testing.T) {
	p := views.NewDrawerLogsProps("files", nil, 0, 200, "warning", "/ui/servers/files/logs/level", testNow)
	doc := renderDrawerPart(t, "pt-BR", views.DrawerLogs(p))
	if doc.Find(`[data-testid="logs-empty"]`).Length() != 1 || doc.Find(`[data-testid="log-list"]`).Length() != 0 {
		t.Error("want the empty note and no list for a server that sent nothing")
	}
	form := doc.Find(`[data-testid="log-level-form"]`)
	if form.AttrOr("hx-post", "") != "/ui/servers/files/logs/level" {
		t.Errorf("got hx-post %q, want the level URL", form.AttrOr("hx-post", ""))
	}
	sel := form.Find(`select[name="level"]`)
	id, _ := sel.Attr("id")
	if form.Find(`label[for="`+id+`"]`).Length() != 1 {
		t.Error("the selector has no label")
	}
	if sel.Find("option").Length() != 8 {
		t.Errorf("got %d options, want the eight levels (no server default once one is chosen)", sel.Find("option").Length())
	}
	if got := sel.Find("option[selected]").AttrOr("value", ""); got != "warning" {
		t.Errorf("got %q selected, want warning", got)
	}
	if got := sel.Find(`option[value="warning"]`).Text(); got != "Alerta" {
		t.Errorf("got %q for warning in Portuguese, want Alerta", got)
	}

	p = views.NewDrawerLogsProps("files", nil, 0, 200, "", "/u", testNow)
	doc = renderDrawerPart(t, "en", views.DrawerLogs(p))
	if got := doc.Find(`option[selected]`).AttrOr("value", "x"); got != "" {
		t.Errorf("got %q selected before any choice, want the server's default", got)
	}
}

func TestLogLevelFormSavedAndRefused(t *testing.T) {
	p := views.NewLogLevelProps("files", "error", "/u")
	p.Saved = true
	doc := renderDrawerPart(t, "en", views.LogLevelForm(p))
	if got := doc.Find(`[data-testid="log-level-status"]`).Text(); !strings.Contains(got, "Error and more severe") {
		t.Errorf("got status %q, want the level named", got)
	}
	p = views.NewLogLevelProps("files", "", "/u")
	p.Error = "LogLevelNotConnected"
	doc = renderDrawerPart(t, "zh-Hans", views.LogLevelForm(p))
	if got := doc.Find(`[data-testid="log-level-error"][role="alert"]`).Text(); !strings.Contains(got, "未连接") {
		t.Errorf("got %q, want the refusal in Chinese as an alert", got)
	}
}

func TestDrawerShowsLogsOnlyWhenFilled(t *testing.T) {
	p := views.NewDrawerProps(drawerConnected("files"), drawerSampleCaps(), nil, drawerTestURLs)
	if doc := renderDrawerPart(t, "en", views.Drawer(p)); doc.Find(`[data-testid="drawer-logs"]`).Length() != 0 {
		t.Error("got a log section without log messages wired, want none")
	}
	if doc := renderDrawerPart(t, "en", views.DrawerLive(p)); doc.Find(`[data-testid="log-list-wrap"]`).Length() != 0 {
		t.Error("got a log list in the live part without log messages wired, want none")
	}
	p.Logs = views.NewDrawerLogsProps("files", sampleLogs(), 3, 200, "", "/u", testNow)
	if doc := renderDrawerPart(t, "en", views.Drawer(p)); doc.Find(`[data-testid="drawer-logs"] [data-testid="log-entry"]`).Length() != 3 {
		t.Error("want the drawer to hold the log section with its entries")
	}
	live := renderDrawerPart(t, "en", views.DrawerLive(p)).Find(`[data-testid="log-list-wrap"]`)
	if live.AttrOr("hx-swap-oob", "") != "outerHTML" {
		t.Error("want the live part to carry the log list out of band")
	}
}

func TestLogAppendCarriesOnlyNewEntriesToTheTop(t *testing.T) {
	p := views.NewLogAppendProps("files", sampleLogs()[1:], testNow)
	doc := renderDrawerPart(t, "en", views.LogAppend(p))
	app := doc.Find(`[data-testid="log-append"]`)
	if got := app.AttrOr("hx-swap-oob", ""); got != "afterbegin:#"+views.DrawerLogItemsID("files") {
		t.Errorf("got hx-swap-oob %q, want afterbegin on the list's items", got)
	}
	var seqs []string
	app.Find(`[data-testid="log-entry"]`).Each(func(_ int, s *goquery.Selection) { seqs = append(seqs, s.AttrOr("data-seq", "")) })
	if strings.Join(seqs, ",") != "3,2" {
		t.Errorf("got entries %v, want 3,2: the new ones, newest first", seqs)
	}
	if doc.Find("script").Length() != 0 {
		t.Error("a server's text became a script element, want it escaped")
	}
}
