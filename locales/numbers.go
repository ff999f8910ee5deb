package locales

import (
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// printers holds one x/text printer per language, made on first use: a
// printer looks up its language's number patterns when made.
var printers sync.Map // language tag -> *message.Printer

// Printer returns the x/text printer of a language (a BCP 47 tag, as
// Localizer.Lang gives), for numbers written as that language writes them.
func Printer(lang string) *message.Printer {
	if p, ok := printers.Load(lang); ok {
		return p.(*message.Printer)
	}
	p, _ := printers.LoadOrStore(lang, message.NewPrinter(language.Make(lang)))
	return p.(*message.Printer)
}

// Number writes n as the language writes whole numbers: "1,234" in
// English, "1.234" in German, "١٬٢٣٤" in Arabic.
func (l *Localizer) Number(n int64) string {
	return Printer(l.Lang()).Sprint(number.Decimal(n))
}

// withCountText returns data with its whole-number Count written in the
// language's digits and grouping, for the text; the plural form is still
// chosen by the number itself.
func (l *Localizer) withCountText(data map[string]any) map[string]any {
	var n int64
	switch v := data["Count"].(type) {
	case int:
		n = int64(v)
	case int64:
		n = v
	default:
		return data
	}
	text := l.Number(n)
	if text == data["Count"] {
		return data
	}
	out := make(map[string]any, len(data))
	for k, v := range data {
		out[k] = v
	}
	out["Count"] = text
	return out
}
