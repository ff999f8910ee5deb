package views

import "encoding/hex"

// ServerKey turns a server name, which may hold any character, into a
// token safe inside an HTML id and a CSS selector. It is injective, so two
// servers never share an element id, and stable, so the event stream's
// out-of-band swaps find the elements the page rendered.
func ServerKey(name string) string { return "s" + hex.EncodeToString([]byte(name)) }
