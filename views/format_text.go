package views

import (
	"context"
	"strings"
	"sync"
	"time"

	"golang.org/x/text/message"
	"golang.org/x/text/number"

	"github.com/switchboard-mcp/switchboard/locales"
)

// Dates and times are written on the server in UTC, so that every page of
// one language renders the same bytes and can be rendered once and sent
// to many; the page's script rewrites each <time> in the reader's own zone
// with Intl.DateTimeFormat. golang.org/x/text has no date formatting, so
// the UTC fallback takes its order and separators from this table: all
// numeric, so no month name of one language leaks into another.
var dateTimeLayouts = map[string]string{
	"en":      "2006-01-02 15:04 UTC",
	"pt-BR":   "02/01/2006, 15:04 UTC",
	"zh-Hans": "2006/01/02 15:04 UTC",
	"es":      "02/01/2006, 15:04 UTC",
	"de":      "02.01.2006, 15:04 UTC",
	"fr":      "02/01/2006 15:04 UTC",
	"ja":      "2006/01/02 15:04 UTC",
	"ar":      "02\u200f/01\u200f/2006، 15:04 UTC", // right-to-left marks keep day, month, year in reading order
}

// DateTimeText is t's date and minute in UTC as the reader's language
// writes them: "2026-12-02 09:57 UTC" in English, "02.12.2026, 09:57 UTC"
// in German, with Arabic-Indic digits in Arabic.
func DateTimeText(ctx context.Context, t time.Time) string {
	lang := locales.FromContext(ctx).Lang()
	layout, ok := dateTimeLayouts[lang]
	if !ok {
		layout = dateTimeLayouts["en"]
	}
	return localDigits(lang, t.UTC().Format(layout))
}

// EpochText is DateTimeText of an instant in Unix milliseconds, the form
// props keep for the script's relative times; 0, unknown, is empty.
func EpochText(ctx context.Context, ms int64) string {
	if ms == 0 {
		return ""
	}
	return DateTimeText(ctx, time.UnixMilli(ms))
}

// ClockText is t's time of day in UTC, "15:04", or "15:04:05" with
// seconds, in the digits of the reader's language. Every supported
// language writes a 24-hour clock this way; the script shows the reader's
// own zone and hour cycle.
func ClockText(ctx context.Context, t time.Time, seconds bool) string {
	layout := "15:04"
	if seconds {
		layout = "15:04:05"
	}
	return localDigits(locales.FromContext(ctx).Lang(), t.UTC().Format(layout))
}

// DigitsText writes the digits of s, a clock time or the like, in the
// reader's language's digits; everything else in s is kept.
func DigitsText(ctx context.Context, s string) string {
	return localDigits(locales.FromContext(ctx).Lang(), s)
}

// NumberText is n grouped as the reader's language groups thousands:
// "1,234" in English, "1.234" in German, "١٬٢٣٤" in Arabic.
func NumberText(ctx context.Context, n int64) string {
	return printer(locales.FromContext(ctx).Lang()).Sprint(number.Decimal(n))
}

// DecimalText is f with at most digits decimals, in the reader's
// language: "1.5" in English, "1,5" in German.
func DecimalText(ctx context.Context, f float64, digits int) string {
	return decimalIn(locales.FromContext(ctx).Lang(), f, digits)
}

func decimalIn(lang string, f float64, digits int) string {
	return printer(lang).Sprint(number.Decimal(f, number.MaxFractionDigits(digits), number.MinFractionDigits(0)))
}

// printer is the language's number printer, shared with locales.
func printer(lang string) *message.Printer { return locales.Printer(lang) }

// digitSets are the ten digits of each language that does not write
// 0–9, taken from x/text's number data so dates and numbers agree.
var digitSets sync.Map // language tag -> []string, nil for 0–9

// localDigits replaces the ASCII digits of s with the language's own.
func localDigits(lang, s string) string {
	v, ok := digitSets.Load(lang)
	if !ok {
		var set []string
		p := printer(lang)
		if p.Sprint(number.Decimal(0)) != "0" {
			set = make([]string, 10)
			for d := range set {
				set[d] = p.Sprint(number.Decimal(d))
			}
		}
		v, _ = digitSets.LoadOrStore(lang, set)
	}
	set := v.([]string)
	if set == nil {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteString(set[r-'0'])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Decimal is a number in a Message's data that MsgText writes the way the
// reader's language writes numbers; props are built before the language
// is known, so the number waits in this form.
type Decimal struct {
	Value  float64
	Digits int  // this many decimals: "2.0 s" reads as measured
	Upto   bool // at most Digits decimals, trailing zeros dropped: "12 ms"
}

// text writes d in lang.
func (d Decimal) text(lang string) string {
	if d.Upto {
		return decimalIn(lang, d.Value, d.Digits)
	}
	return printer(lang).Sprint(number.Decimal(d.Value, number.Scale(d.Digits)))
}

// Digits is text in a Message's data, such as a clock time, whose digits
// MsgText writes in the reader's language.
type Digits string

// MsgText translates m, writing each Decimal, Digits and whole number but
// Count in its data in the reader's language first, and translating each
// Message among them: a violation's own text goes inside "At /path: …"
// that way, in the same language, without the handler that built it
// knowing the language. Formatted values are strings, so a message with
// one of them is still remembered per language by locales' memo. m.Data
// may be shared by concurrent renders; it is never written to.
func MsgText(ctx context.Context, m Message) string {
	l := locales.FromContext(ctx)
	data, copied := m.Data, false
	for k, v := range m.Data {
		var text string
		switch v := v.(type) {
		case Decimal:
			text = v.text(l.Lang())
		case int64, int:
			if k == "Count" {
				continue // it picks the plural form, so it stays a number
			}
			text = printer(l.Lang()).Sprint(number.Decimal(v))
		case Digits:
			text = localDigits(l.Lang(), string(v))
		case Message:
			text = MsgText(ctx, v)
		default:
			continue
		}
		if !copied {
			data, copied = make(map[string]any, len(m.Data)), true
			for k2, v2 := range m.Data {
				data[k2] = v2
			}
		}
		data[k] = text
	}
	return l.T(m.ID, data)
}
