package views_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestCallsFilterRoundTripsThroughTheAddress(t *testing.T) {
	from := time.UnixMilli(1764597780000)
	tests := []struct {
		name  string
		query string
		want  views.CallsFilter
	}{
		{"empty", "", views.CallsFilter{}},
		{"all", "server=a+b&status=error&source=gateway&from=1764597780000&to=1764597840000",
			views.CallsFilter{Server: "a b", Status: "error", Source: "gateway", From: from, To: from.Add(time.Minute)}},
		{"unknown-status-dropped", "status=exploded", views.CallsFilter{}},
		{"bad-times-dropped", "from=soon&to=-5", views.CallsFilter{}},
		{"to-not-after-from-dropped", "from=1764597780000&to=1764597780000", views.CallsFilter{From: from}},
		{"client-name-kept", "source=Claude+Code", views.CallsFilter{Source: "Claude Code"}},
		{"server-list-state-kept", "state=failing&status=error", views.CallsFilter{State: "failing", Status: "error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			got := views.ParseCallsFilter(q)
			if !got.From.Equal(tt.want.From) || !got.To.Equal(tt.want.To) || got.Server != tt.want.Server ||
				got.Status != tt.want.Status || got.Source != tt.want.Source || got.State != tt.want.State {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			again := views.ParseCallsFilter(got.Query())
			if again.Query().Encode() != got.Query().Encode() {
				t.Errorf("round trip: got %q, want %q", again.Query().Encode(), got.Query().Encode())
			}
		})
	}
}

func TestCallsFilterMatchesAsTheStoreFilters(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 3, 0, 0, time.UTC)
	inv := domain.Invocation{ServerName: "demo", Status: domain.InvocationError, Source: domain.SourceGateway,
		Client: domain.ClientIdentity{Name: "Claude Code"}, StartedAt: at.Add(10 * time.Second)}
	tests := []struct {
		name string
		f    views.CallsFilter
		want bool
	}{
		{"none", views.CallsFilter{}, true},
		{"server", views.CallsFilter{Server: "demo"}, true},
		{"other-server", views.CallsFilter{Server: "x"}, false},
		{"status", views.CallsFilter{Status: "error"}, true},
		{"other-status", views.CallsFilter{Status: "success"}, false},
		{"source", views.CallsFilter{Source: "gateway"}, true},
		{"client", views.CallsFilter{Source: "Claude Code"}, true},
		{"other-source", views.CallsFilter{Source: "api"}, false},
		{"in-minute", views.CallsFilter{From: at, To: at.Add(time.Minute)}, true},
		{"before-range", views.CallsFilter{From: at.Add(time.Minute)}, false},
		{"to-is-open", views.CallsFilter{To: at.Add(10 * time.Second)}, false},
	}
	for _, tt := range tests {
		if got := tt.f.Matches(inv); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
		d := tt.f.Domain(5)
		if d.StartedFrom != tt.f.From || d.StartedBefore != tt.f.To || d.Limit != 5 {
			t.Errorf("%s: domain filter %+v", tt.name, d)
		}
	}
	if d := (views.CallsFilter{Source: "Claude Code"}).Domain(1); d.Client != "Claude Code" || d.Source != "" {
		t.Errorf("a client's name filters by client: %+v", d)
	}
}

func TestCallRowShowsWhatAPersonScans(t *testing.T) {
	inv := invAt(domain.InvocationError, "")
	inv.Error = strings.Repeat("boom ", 100)
	row := views.NewCallRowProps(inv, "/card")
	doc := renderDrawerPart(t, "en", views.CallItem(row))
	r := doc.Find(`[data-testid="call-row"]`)
	if r.AttrOr("data-status", "") != "error" || r.AttrOr("id", "") != views.CallRowID(inv.ID) {
		t.Fatalf("row: %s", r.Text())
	}
	btn := r.Find(`button[data-testid="call-row-toggle"]`)
	if btn.AttrOr("aria-expanded", "") != "false" || btn.AttrOr("aria-controls", "") != views.CallSlotID(inv.ID) {
		t.Errorf("toggle: aria-expanded %q, aria-controls %q", btn.AttrOr("aria-expanded", ""), btn.AttrOr("aria-controls", ""))
	}
	for sel, want := range map[string]string{
		`[data-testid="call-row-status"]`:   "✗ Error",
		`[data-testid="call-row-tool"]`:     "echo",
		`[data-testid="call-row-duration"]`: "1.5 s",
	} {
		if got := strings.TrimSpace(r.Find(sel).Text()); got != want {
			t.Errorf("%s: got %q, want %q", sel, got, want)
		}
	}
	msg := r.Find(`[data-testid="call-row-error"]`).Text()
	if n := len([]rune(msg)); n != views.CallErrorRunes || !strings.HasSuffix(msg, "…") {
		t.Errorf("row error: %d runes %q, want cut to %d with an ellipsis", n, msg, views.CallErrorRunes)
	}
	if doc.Find(`#`+views.CallSlotID(inv.ID)+`[hidden]`).Length() != 1 {
		t.Error("no hidden card slot under the row")
	}
}

// TestCallRowAndCardCarryTheVersion: the page compares an open card's
// version with its row's to reload a card that missed its own event.
func TestCallRowAndCardCarryTheVersion(t *testing.T) {
	inv := invAt(domain.InvocationRunning, "")
	inv.Version = 42
	row := renderDrawerPart(t, "en", views.CallRow(views.NewCallRowProps(inv, "/c")))
	card := renderDrawerPart(t, "en", views.InvocationCard(views.NewInvocationCardProps(inv, views.CardInput{Place: views.CallCardPlace, URLs: invURLs})))
	if got := row.Find(`[data-testid="call-row"]`).AttrOr("data-version", ""); got != "42" {
		t.Errorf("row data-version %q, want 42", got)
	}
	if got := card.Find(`[data-testid="invocation-card"]`).AttrOr("data-version", ""); got != "42" {
		t.Errorf("card data-version %q, want 42", got)
	}
}

func TestCallRowErrorOfAToolResult(t *testing.T) {
	inv := invAt(domain.InvocationError, `{"isError":true,"content":[{"type":"text","text":"no such\nfile"}]}`)
	if got := views.NewCallRowProps(inv, "").Error; got != "no such file" {
		t.Errorf("error from an isError result: got %q", got)
	}
	if views.NewCallRowProps(invAt(domain.InvocationSuccess, `{"content":[]}`), "").Failed() {
		t.Error("a successful row shows an error")
	}
}

func TestCallsSectionTranslatedAndFilterChip(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 3, 0, 0, time.UTC)
	p := views.NewCallsProps(views.CallsFilter{Status: "error", From: at, To: at.Add(time.Minute), State: "failing"}, []string{"demo"}, "/")
	for lang, want := range map[string]string{"en": "Calls", "pt-BR": "Chamadas", "zh-Hans": "调用"} {
		doc := renderDrawerPart(t, lang, views.Calls(p))
		if got := doc.Find(`#calls-title`).Text(); got != want {
			t.Errorf("%s title: got %q, want %q", lang, got, want)
		}
		chip := doc.Find(`a[data-testid="calls-range"]`)
		if got := chip.AttrOr("href", ""); got != "/?state=failing&status=error" {
			t.Errorf("%s: removing the range goes to %q, want /?state=failing&status=error", lang, got)
		}
		if got := doc.Find(`[data-testid="calls-filters"] input[type="hidden"][name="state"]`).AttrOr("value", ""); got != "failing" {
			t.Errorf("%s: the filter form drops the server list's state (got %q)", lang, got)
		}
		if chip.Find(`time`).Length() != 1 {
			t.Errorf("%s: a one-minute range shows one time, got %d", lang, chip.Find(`time`).Length())
		}
		nb := doc.Find(`[data-testid="calls-new"]`)
		var forms map[string]string
		if err := json.Unmarshal([]byte(nb.AttrOr("data-plural", "")), &forms); err != nil || !strings.Contains(forms["100"], nb.AttrOr("data-sentinel", "?")) {
			t.Errorf("%s: the new-calls text has no place for the count: %q (%v)", lang, forms["100"], err)
		}
		for _, id := range []string{"calls-filters", "calls-list", "calls-filter-server", "calls-filter-status", "calls-filter-source"} {
			if doc.Find(`[data-testid="`+id+`"]`).Length() != 1 {
				t.Errorf("%s: no %s", lang, id)
			}
		}
	}
}

func TestCallCardOpensWithTheError(t *testing.T) {
	inv := invAt(domain.InvocationError, "")
	inv.Error = "<b>refused</b>"
	card := views.NewInvocationCardProps(inv, views.CardInput{Place: views.CallCardPlace, URLs: invURLs})
	doc := renderDrawerPart(t, "en", views.CallCard(views.NewCallCardProps(inv, card)))
	first := doc.Find(`[data-testid="call-card"]`).Children().First()
	if first.AttrOr("data-testid", "") != "call-card-error" || first.Find("p").Text() != "<b>refused</b>" {
		t.Errorf("first in the card: %q", first.Text())
	}
	if !strings.Contains(first.Text(), "✗") || !strings.Contains(first.Text(), "Error") {
		t.Errorf("the error is not said in words and symbol: %q", first.Text())
	}
	if doc.Find(`[data-testid="invocation-result"][open]`).Length() != 1 {
		t.Error("a failed call's result is closed in the list's card, want it open with the error")
	}
	ok := views.NewCallCardProps(invAt(domain.InvocationSuccess, `{"content":[]}`), card)
	if doc := renderDrawerPart(t, "en", views.CallCard(ok)); doc.Find(`[data-testid="call-card-error"]`).Length() != 0 {
		t.Error("a successful call's card opens with an error")
	}
}

// TestCallErrorTextIsBounded: a failed call whose isError result is
// megabytes of text opens its card with a bounded error, cut on a rune.
func TestCallErrorTextIsBounded(t *testing.T) {
	huge := strings.Repeat("é", 1<<20)
	inv := domain.Invocation{Status: domain.InvocationError,
		Result: json.RawMessage(`{"isError":true,"content":[{"type":"text","text":"` + huge + `"}]}`)}
	got := views.CallErrorText(inv)
	if len(got) > views.CallErrorBytes+len("…") || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("error text: got %d bytes (valid UTF-8 %v), want at most %d and cut with an ellipsis", len(got), utf8.ValidString(got), views.CallErrorBytes)
	}
	inv = domain.Invocation{Status: domain.InvocationError, Error: huge}
	if got := views.CallErrorText(inv); len(got) > views.CallErrorBytes+len("…") {
		t.Errorf("stored error: got %d bytes, want at most %d", len(got), views.CallErrorBytes)
	}
}
