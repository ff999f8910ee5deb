package views_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

func langCtx(t *testing.T, lang string) context.Context {
	t.Helper()
	c, err := locales.Load()
	if err != nil {
		t.Fatal(err)
	}
	l := c.Localizer(lang)
	if l.Lang() != lang {
		t.Fatalf("Localizer(%q) is %q", lang, l.Lang())
	}
	return locales.WithLocalizer(context.Background(), l)
}

// Times are written in UTC whatever the server's zone, so every page of
// one language renders the same, and in the language's own order and
// digits; numbers group and mark decimals as the language does.
func TestFormatTextPerLanguage(t *testing.T) {
	at := time.Date(2026, 12, 2, 9, 7, 5, 0, time.FixedZone("CET", 3600))
	type want struct{ dateTime, clock, clockSecs, number, decimal string }
	for lang, w := range map[string]want{
		"en": {"2026-12-02 08:07 UTC", "08:07", "08:07:05", "1,234,567", "1.5"},
		"de": {"02.12.2026, 08:07 UTC", "08:07", "08:07:05", "1.234.567", "1,5"},
		"ja": {"2026/12/02 08:07 UTC", "08:07", "08:07:05", "1,234,567", "1.5"},
		"ar": {"٠٢\u200f/١٢\u200f/٢٠٢٦، ٠٨:٠٧ UTC", "٠٨:٠٧", "٠٨:٠٧:٠٥", "١٬٢٣٤٬٥٦٧", "١٫٥"},
	} {
		ctx := langCtx(t, lang)
		got := want{views.DateTimeText(ctx, at), views.ClockText(ctx, at, false), views.ClockText(ctx, at, true),
			views.NumberText(ctx, 1234567), views.DecimalText(ctx, 1.5, 1)}
		if got != w {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, w)
		}
		if e := views.EpochText(ctx, at.UnixMilli()); e != w.dateTime {
			t.Errorf("%s: EpochText %q, want %q", lang, e, w.dateTime)
		}
	}
}

// A duration's numbers are written in the reader's language when the
// message is rendered, whatever unit it is in.
func TestDurationTextPerLanguage(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want map[string]string
	}{
		{250 * time.Millisecond, map[string]string{"en": "250 ms", "de": "250 ms", "ja": "250 ms", "ar": "٢٥٠ مللي ثانية"}},
		{1500 * time.Millisecond, map[string]string{"en": "1.5 s", "de": "1,5 s", "ar": "١٫٥ ث"}},
		{2 * time.Second, map[string]string{"en": "2.0 s", "de": "2,0 s"}},
		{185 * time.Second, map[string]string{"en": "3 min 5 s", "de": "3 min 5 s", "ja": "3分5秒", "ar": "٣ د ٥ ث"}},
		{3*time.Hour + 5*time.Minute, map[string]string{"en": "3 h 5 min", "de": "3 h 5 min", "ja": "3時間5分", "ar": "٣ س ٥ د"}},
		// The unit is chosen after rounding: never "60.0 s" or "60 min 0 s".
		{59960 * time.Millisecond, map[string]string{"en": "1 min 0 s"}},
		{time.Hour - 400*time.Millisecond, map[string]string{"en": "1 h 0 min"}},
	}
	for _, c := range cases {
		for lang, want := range c.want {
			if got := unisolated(views.MsgText(langCtx(t, lang), views.DurationMessage(c.d))); got != want {
				t.Errorf("%s %v: %q, want %q", lang, c.d, got, want)
			}
		}
	}
}

// A share and a latency in a message are written in the reader's
// language when it is rendered.
func TestMessageNumbersPerLanguage(t *testing.T) {
	share := views.Message{ID: "ChartUptimeSummary", Data: map[string]any{"Percent": views.Decimal{Value: 98.5, Digits: 1, Upto: true}}}
	whole := views.Message{ID: "ChartUptimeSummary", Data: map[string]any{"Percent": views.Decimal{Value: 100, Digits: 1, Upto: true}}}
	for lang, want := range map[string][2]string{"en": {"98.5", "100"}, "de": {"98,5", "100"}, "ja": {"98.5", "100"}, "ar": {"٩٨٫٥", "١٠٠"}} {
		ctx := langCtx(t, lang)
		if got := unisolated(views.MsgText(ctx, share)); !strings.Contains(got, want[0]) || strings.Contains(got, "{") {
			t.Errorf("%s: %q, want it to hold %q", lang, got, want[0])
		}
		if got := unisolated(views.MsgText(ctx, whole)); !strings.Contains(got, want[1]) || strings.Contains(got, "100.0") {
			t.Errorf("%s: %q, want it to hold %q", lang, got, want[1])
		}
	}
	if got := unisolated(views.MsgText(langCtx(t, "de"), views.Message{ID: "InvocationDurationMs", Data: map[string]any{"Ms": int64(1250)}})); got != "1.250 ms" {
		t.Errorf("de: %q, want 1.250 ms", got)
	}
}

// unisolated drops the bidi isolates a right-to-left page puts around
// values: where they go is not what these tests are about.
func unisolated(s string) string {
	return strings.NewReplacer("\u2068", "", "\u2069", "").Replace(s)
}
