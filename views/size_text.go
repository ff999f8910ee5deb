package views

import (
	"context"

	"golang.org/x/text/number"

	"github.com/switchboard-mcp/switchboard/locales"
)

// sizeUnits are binary multiples with their message ids, largest first.
var sizeUnits = []struct {
	bytes int64
	id    string
}{
	{1 << 30, "DrawerSizeGiB"},
	{1 << 20, "DrawerSizeMiB"},
	{1 << 10, "DrawerSizeKiB"},
}

// SizeText says a byte count the way the reader's language writes
// numbers: "1.5 KiB" in English, "1,5 KiB" in Portuguese. It is the one
// way a size is shown, in the drawer's resource list and on a card's
// resource links alike.
func SizeText(ctx context.Context, n int64) string {
	l := locales.FromContext(ctx)
	for _, u := range sizeUnits {
		if n >= u.bytes {
			p := locales.Printer(l.Lang())
			v := p.Sprint(number.Decimal(float64(n)/float64(u.bytes), number.MaxFractionDigits(1)))
			return l.T(u.id, map[string]any{"Size": v})
		}
	}
	return l.T("DrawerSizeBytes", map[string]any{"Count": n})
}
