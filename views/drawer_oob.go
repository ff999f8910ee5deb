package views

import "github.com/a-h/templ"

// drawerOOB marks an element for an out-of-band swap when oob is set, and
// adds nothing otherwise: an empty hx-swap-oob would still count as one.
func drawerOOB(oob bool) templ.Attributes {
	if oob {
		return templ.Attributes{"hx-swap-oob": "outerHTML"}
	}
	return nil
}
