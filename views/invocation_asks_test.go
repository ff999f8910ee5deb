package views_test

import (
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// A card lists what the server asked during the call, in order, each with
// how long into the call it came and how it ended; the detail is the
// server's or client's text, shown inert.
func TestCardListsTheServersAsks(t *testing.T) {
	inv := invAt(domain.InvocationSuccess, `{"content":[]}`)
	inv.Asks = []domain.AskRecord{
		{Method: domain.MethodElicit, At: testNow.Add(400 * time.Millisecond), Outcome: domain.AskAnswered},
		{Method: domain.MethodSample, At: testNow.Add(1200 * time.Millisecond), Outcome: domain.AskNotAsked,
			Detail: `nobody could be asked: the client did not declare <b>sampling</b>`},
		{Method: domain.MethodRoots, At: testNow.Add(1300 * time.Millisecond), Outcome: domain.AskFailed, Detail: "boom"},
	}
	card := renderCard(t, inv, views.CardInput{})
	asks := card.Find(`[data-testid="invocation-asks"]`)
	if asks.Length() != 1 {
		t.Fatalf("asks parts: got %d, want 1", asks.Length())
	}
	title := asks.AttrOr("aria-labelledby", "")
	if asks.AttrOr("role", "") != "group" || title == "" || card.Find("#"+title).Text() != "Requests from the server" {
		t.Errorf("role %q labelled by %q, want a group named by its caption", asks.AttrOr("role", ""), title)
	}
	if live := asks.Find("ol").AttrOr("aria-live", ""); live != "polite" {
		t.Errorf("aria-live %q, want polite", live)
	}
	items := asks.Find(`[data-testid="invocation-ask"]`)
	want := []struct{ method, outcome, what, at, result string }{
		{"elicit", "answered", "Asked for input", "400 ms into the call", "answered by the client"},
		{"sample", "not_asked", "Asked the model", "1.2 s into the call", "not asked: nobody could be asked: the client did not declare <b>sampling</b>"},
		{"roots", "failed", "Asked for the workspace roots", "1.3 s into the call", "failed: boom"},
	}
	if items.Length() != len(want) {
		t.Fatalf("asks: got %d, want %d", items.Length(), len(want))
	}
	for i, w := range want {
		it := items.Eq(i)
		got := []string{it.AttrOr("data-method", ""), it.AttrOr("data-outcome", ""),
			it.Find(`[data-testid="invocation-ask-what"]`).Text(), it.Find(`[data-testid="invocation-ask-at"]`).Text(),
			it.Find(`[data-testid="invocation-ask-outcome"]`).Text()}
		if strings.Join(got, "|") != strings.Join([]string{w.method, w.outcome, w.what, w.at, w.result}, "|") {
			t.Errorf("ask %d: got %q, want %+v", i, got, w)
		}
	}
	if items.Find("b").Length() != 0 {
		t.Error("the detail's markup became elements")
	}
	if dt := items.Eq(0).Find("time").AttrOr("datetime", ""); dt != testNow.Add(400*time.Millisecond).UTC().Format(time.RFC3339Nano) {
		t.Errorf("datetime %q, want the ask's instant", dt)
	}

	if card := renderCard(t, invAt(domain.InvocationRunning, ""), views.CardInput{}); card.Find(`[data-testid="invocation-asks"]`).Length() != 0 {
		t.Error("a call that asked nothing lists asks")
	}
}

func TestAsksPropsEdges(t *testing.T) {
	inv := invAt(domain.InvocationRunning, "")
	inv.Asks = []domain.AskRecord{
		{Method: "ping", At: testNow.Add(-time.Second), Outcome: "weird", Detail: strings.Repeat("é", views.AskDetailBytes)},
		{Method: domain.MethodElicit, At: testNow, Outcome: domain.AskNotAsked},
	}
	p := views.NewInvocationAsksProps(inv, "inv-x")
	if p.TitleID != "inv-x-asks" {
		t.Errorf("title id %q, want inv-x-asks", p.TitleID)
	}
	odd := p.Items[0]
	if odd.Kind != "other" || odd.What.ID != "InvocationAskOther" || odd.Outcome != domain.AskFailed {
		t.Errorf("an unknown method and outcome: got %+v, want other and failed", odd)
	}
	if d, _ := odd.Result.Data["Detail"].(string); len(d) > views.AskDetailBytes+len("…") || !strings.HasSuffix(d, "…") {
		t.Errorf("a long detail is %d bytes, want it cut to %d and marked", len(d), views.AskDetailBytes)
	}
	if odd.After.ID != "InvocationDurationMs" || odd.After.Data["Ms"] != int64(0) {
		t.Errorf("an ask stamped before the start: after %+v, want 0 ms", odd.After)
	}
	if r := p.Items[1].Result; r.ID != "InvocationAskNotAsked" || r.Data != nil {
		t.Errorf("not asked without a detail: got %+v", r)
	}
	inv.Asks = nil
	if views.NewInvocationAsksProps(inv, "inv-x") != nil {
		t.Error("no asks, yet props")
	}
}

// Each part of an ask reads in each language.
func TestAsksAreTranslated(t *testing.T) {
	inv := invAt(domain.InvocationRunning, "")
	inv.Asks = []domain.AskRecord{{Method: domain.MethodElicit, At: testNow.Add(2 * time.Second), Outcome: domain.AskFailed, Detail: "x"}}
	for lang, want := range map[string]string{
		"en":      "Asked for input|2.0 s into the call|failed: x",
		"pt-BR":   "Pediu informações|2,0 s após o início da chamada|falhou: x",
		"zh-Hans": "请求输入|调用开始后 2.0 秒|失败：x",
	} {
		doc := renderDrawerPart(t, lang, views.InvocationAsks(views.NewInvocationAsksProps(inv, "c")))
		got := doc.Find(`[data-testid="invocation-ask-what"]`).Text() + "|" + doc.Find(`[data-testid="invocation-ask-at"]`).Text() +
			"|" + doc.Find(`[data-testid="invocation-ask-outcome"]`).Text()
		if got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
