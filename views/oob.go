package views

import "github.com/a-h/templ"

// oobAttrs marks an element as an htmx out-of-band swap of the element with
// the same id when on is set, and adds nothing otherwise: an empty
// hx-swap-oob would still count as one. Chips, rows, drawer parts, cards and
// banners all use it, so every pushed fragment swaps the same way.
func oobAttrs(on bool) templ.Attributes {
	if on {
		return templ.Attributes{"hx-swap-oob": "outerHTML"}
	}
	return nil
}
