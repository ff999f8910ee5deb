package views_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// invPNG is a 1x1 PNG.
const invPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

func invAt(status domain.InvocationStatus, result string) domain.Invocation {
	inv := domain.Invocation{ID: "abcdef123456", ServerName: "demo", Tool: "echo", Status: status,
		Arguments: json.RawMessage(`{"message":"hi","n":2}`), StartedAt: testNow}
	if status.Final() {
		inv.EndedAt = testNow.Add(1500 * time.Millisecond)
	}
	if result != "" {
		inv.Result = json.RawMessage(result)
	}
	return inv
}

var invURLs = views.CardURLs{
	Copy: func(part string) string { return "/copy?part=" + part },
	Stop: "/stop", Retry: "/retry",
	Item: func(i int) string { return "/item" },
	Read: func(uri string) string { return "/read?uri=" + uri },
}

func renderCard(t testing.TB, inv domain.Invocation, in views.CardInput) *goquery.Selection {
	t.Helper()
	if in.URLs.Copy == nil {
		in.URLs = invURLs
	}
	doc := renderDrawerPart(t, "en", views.InvocationCard(views.NewInvocationCardProps(inv, in)))
	card := doc.Find(`[data-testid="invocation-card"]`)
	if card.Length() != 1 {
		t.Fatalf("cards: got %d, want 1", card.Length())
	}
	return card
}

func TestCardPerStatus(t *testing.T) {
	tests := []struct {
		status                         domain.InvocationStatus
		badge                          string
		resultOpen, cancel, retry, dot bool
	}{
		{domain.InvocationPending, "⏳ Waiting", false, true, false, false},
		{domain.InvocationRunning, "⚙ Running…", false, true, false, true},
		{domain.InvocationSuccess, "✓ Done", true, false, true, false},
		{domain.InvocationError, "✗ Error", false, false, true, false},
		{domain.InvocationCancelled, "⊘ Cancelled", false, false, true, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.status), func(t *testing.T) {
			card := renderCard(t, invAt(tt.status, `{"content":[{"type":"text","text":"ok"}]}`), views.CardInput{})
			if got := card.AttrOr("data-status", ""); got != string(tt.status) {
				t.Errorf("data-status: got %q, want %q", got, tt.status)
			}
			if got := card.AttrOr("aria-label", ""); !strings.HasPrefix(got, "Tool invocation: echo") {
				t.Errorf("aria-label: got %q, want Tool invocation: echo…", got)
			}
			if got := card.AttrOr("role", ""); got != "region" {
				t.Errorf("role: got %q, want region", got)
			}
			badge := card.Find(`[data-testid="invocation-badge"]`)
			if got := strings.TrimSpace(badge.Text()); got != tt.badge {
				t.Errorf("badge: got %q, want %q", got, tt.badge)
			}
			if got := badge.AttrOr("aria-live", ""); got != "polite" {
				t.Errorf("badge aria-live: got %q, want polite", got)
			}
			if _, open := card.Find(`[data-testid="invocation-args"]`).Attr("open"); open {
				t.Errorf("arguments open; want collapsed by default")
			}
			if _, open := card.Find(`[data-testid="invocation-result"]`).Attr("open"); open != tt.resultOpen {
				t.Errorf("result open: got %v, want %v", open, tt.resultOpen)
			}
			for sel, want := range map[string]bool{`[data-testid="invocation-cancel"]`: tt.cancel, `[data-testid="invocation-retry"]`: tt.retry,
				`[data-testid="invocation-breath"]`: tt.dot, `[data-testid="invocation-duration"]`: tt.status.Final(),
				`[data-testid="invocation-progress"]`: tt.status == domain.InvocationRunning} {
				if got := card.Find(sel).Length() == 1; got != want {
					t.Errorf("%s present: got %v, want %v", sel, got, want)
				}
			}
			// One header row: the server as plain text (its chip is in the
			// page's header already), the start time, status and actions.
			head := card.Find(`[data-testid="invocation-head"]`)
			if got := strings.TrimSpace(head.Find(`[data-testid="invocation-origin"]`).Contents().Not("span").Text()); got != "demo" {
				t.Errorf("server in the header: got %q, want demo", got)
			}
			if n := card.Find(`[data-testid="status-chip"]`).Length(); n != 0 {
				t.Errorf("status chips on the card: got %d, want 0", n)
			}
			if got := head.Find(`[data-testid="invocation-started"]`).AttrOr("data-started-ms", ""); got != strconv.FormatInt(testNow.UnixMilli(), 10) {
				t.Errorf("started: got data-started-ms %q, want %d", got, testNow.UnixMilli())
			}
			if got := head.Find(`[data-testid="invocation-started"]`).Text(); got != testNow.Local().Format(time.TimeOnly) {
				t.Errorf("started: got %q, want HH:MM:SS", got)
			}
			for _, id := range []string{"invocation-badge", "invocation-retry", "invocation-cancel", "invocation-duration"} {
				if n := card.Find(`[data-testid="` + id + `"]`).Length(); n > 0 && head.Find(`[data-testid="`+id+`"]`).Length() != n {
					t.Errorf("%s: not in the header row", id)
				}
			}
		})
	}
}

func TestCardProgressAndArguments(t *testing.T) {
	inv := invAt(domain.InvocationRunning, "")
	inv.Progress = &domain.Progress{Progress: 3, Total: 10, Message: "step 3"}
	card := renderCard(t, inv, views.CardInput{})
	p := card.Find(`[data-testid="invocation-progress"]`)
	for attr, want := range map[string]string{"aria-valuenow": "3", "aria-valuemax": "10", "role": "progressbar"} {
		if got := p.AttrOr(attr, ""); got != want {
			t.Errorf("progress %s: got %q, want %q", attr, got, want)
		}
	}
	if got := card.Find(`[data-testid="invocation-progress-message"]`).Text(); got != "step 3" {
		t.Errorf("progress message: got %q", got)
	}
	// The numbers in text; cards.js appends the elapsed seconds in the
	// format the attribute gives.
	text := card.Find(`[data-testid="invocation-progress-text"]`)
	if got := strings.TrimSpace(text.Text()); got != "3 / 10 · 30 %" {
		t.Errorf("progress text: got %q, want 3 / 10 · 30 %%", got)
	}
	if got := text.AttrOr("data-elapsed-format", ""); got != "{s} s" {
		t.Errorf("elapsed format: got %q, want {s} s", got)
	}
	if got := card.Find(`[data-testid="invocation-args-json"]`).Text(); !strings.Contains(got, "\"message\": \"hi\"") {
		t.Errorf("pretty arguments: got %q", got)
	}
	if got := card.Find(`[data-testid="invocation-copy-args"]`).AttrOr("data-copy-url", ""); got != "/copy?part=arguments" {
		t.Errorf("copy url: got %q", got)
	}
	if got := card.Find(`[data-testid="invocation-args-form"] [data-testid="invocation-arg-field"]`).Length(); got != 2 {
		t.Errorf("form view fields: got %d, want 2", got)
	}
	if card.Find(`[data-testid="invocation-args-expand"]`).Length() != 0 {
		t.Errorf("short arguments have an expand button")
	}

	long := map[string]int{}
	for i := range 150 {
		long[strings.Repeat("k", 3)+string(rune('a'+i%26))+strings.Repeat("x", i)] = i
	}
	inv.Arguments, _ = json.Marshal(long)
	card = renderCard(t, inv, views.CardInput{})
	if card.Find(`[data-testid="invocation-args-expand"]`).Length() != 1 {
		t.Errorf("150-line arguments: no expand button")
	}
}

func TestCardPlacesHaveDistinctIDsAndLabels(t *testing.T) {
	inv := invAt(domain.InvocationSuccess, "")
	seen := map[string]bool{}
	for _, place := range []views.CardPlace{views.CardInFeed, views.CardInDrawer, views.CardInHistory} {
		card := renderCard(t, inv, views.CardInput{Place: place})
		for _, v := range []string{card.AttrOr("id", ""), card.AttrOr("aria-label", "")} {
			if seen[v] {
				t.Errorf("%s: %q repeats another placement's", place, v)
			}
			seen[v] = true
		}
	}
}

func TestCardInsertIsOutOfBand(t *testing.T) {
	p := views.NewInvocationCardProps(invAt(domain.InvocationPending, ""), views.CardInput{URLs: invURLs})
	doc := renderDrawerPart(t, "en", views.CardInsert(views.CardInsertProps{ListID: views.DrawerFeedListID("demo"), Card: p}))
	if got := doc.Find(`[hx-swap-oob]`).AttrOr("hx-swap-oob", ""); got != "afterbegin:#"+views.DrawerFeedListID("demo") {
		t.Errorf("insert swap: got %q", got)
	}
	p.OOB = true
	doc = renderDrawerPart(t, "en", views.InvocationCard(p))
	if got := doc.Find(`[data-testid="invocation-card"]`).AttrOr("hx-swap-oob", ""); got != "outerHTML" {
		t.Errorf("replace swap: got %q", got)
	}
}

func TestCardTranslated(t *testing.T) {
	for lang, want := range map[string]string{"pt-BR": "⚙ Executando…", "zh-Hans": "⚙ 运行中…"} {
		doc := renderDrawerPart(t, lang, views.InvocationCard(views.NewInvocationCardProps(invAt(domain.InvocationRunning, ""), views.CardInput{})))
		if got := strings.TrimSpace(doc.Find(`[data-testid="invocation-badge"]`).Text()); got != want {
			t.Errorf("%s badge: got %q, want %q", lang, got, want)
		}
	}
}

func BenchmarkCardOneMegabyteText(b *testing.B) {
	text, _ := json.Marshal(strings.Repeat("Some *markdown* text, a line of it.\n", 1<<20/36))
	inv := invAt(domain.InvocationSuccess, `{"content":[{"type":"text","text":`+string(text)+`}]}`)
	ctx := benchCtx(b)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		p := views.NewInvocationCardProps(inv, views.CardInput{URLs: invURLs})
		if err := views.InvocationCard(p).Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KB-html")
}

func BenchmarkFeedThousandCards(b *testing.B) {
	cards := make([]views.InvocationCardProps, 1000)
	ctx := benchCtx(b)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		for i := range cards {
			inv := invAt(domain.InvocationSuccess, `{"content":[{"type":"text","text":"**done** in a moment"}]}`)
			inv.ID = strings.Repeat("a", 8) + string(rune('a'+i%26)) + strings.Repeat("b", i%7)
			cards[i] = views.NewInvocationCardProps(inv, views.CardInput{URLs: invURLs})
		}
		if err := views.DrawerFeed(views.FeedProps{Cards: cards}).Render(ctx, &buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KB-html")
}

// benchCtx is a context carrying the English localizer.
func benchCtx(b *testing.B) context.Context {
	cat, err := locales.Load()
	if err != nil {
		b.Fatal(err)
	}
	return locales.WithLocalizer(context.Background(), cat.Localizer("en"))
}

// A call the previous process left running says so in the reader's
// language, not in the English text kept for the API.
func TestInterruptedCardIsLocalized(t *testing.T) {
	inv := invAt(domain.InvocationError, "")
	inv.Error, inv.ErrorCode = "Switchboard stopped during this call", domain.ErrorCodeInterrupted
	en := renderDrawerPart(t, "en", views.InvocationCard(views.NewInvocationCardProps(inv, views.CardInput{URLs: invURLs})))
	pt := renderDrawerPart(t, "pt-BR", views.InvocationCard(views.NewInvocationCardProps(inv, views.CardInput{URLs: invURLs})))
	got := func(d *goquery.Document) string {
		return strings.TrimSpace(d.Find(`[data-testid="invocation-error"]`).Text())
	}
	if got(en) == "" || got(pt) == "" || got(en) == got(pt) {
		t.Errorf("interrupted error: en %q, pt-BR %q; want a text in each language", got(en), got(pt))
	}
}
