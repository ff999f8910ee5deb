//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// N2: an untrusted certificate is a permanent error: the tooltip names the
// tls category and offers no retry countdown.
func TestTLSErrorIsPermanent(t *testing.T) {
	const name = "untrusted"
	in := startWith(t, servers{name: {"url": tlsServer(t)}})
	page := open(t, in)
	st := in.waitState(t, name, "error")
	if st.Retryable || st.NextRetryAt != nil || st.Phase != "exhausted" {
		t.Errorf("API: got retryable %v nextRetryAt %v phase %s, want false, null, exhausted", st.Retryable, st.NextRetryAt, st.Phase)
	}
	c := chipWhen(t, page, name, "error")
	if got := c.Tip["tooltip-category"].Text; !strings.Contains(strings.ToLower(got), "tls") {
		t.Errorf("tooltip category: got %q, want tls", got)
	}
	if got := c.Tip["tooltip-error"].Text; !strings.Contains(got, "certificate") {
		t.Errorf("tooltip error: got %q, want the certificate error", got)
	}
	retry, ok := c.Tip["tooltip-retry"]
	switch {
	case !ok:
		t.Errorf("tooltip retry: missing, want the no-automatic-retry text")
	case retry.Deadline != nil:
		t.Errorf("tooltip retry: got data-deadline %s, want none (no countdown)", *retry.Deadline)
	case retry.Text == "":
		t.Errorf("tooltip retry: got empty text, want the no-automatic-retry text")
	}
	if !strings.Contains(strings.ToLower(c.Badge), "tls") {
		t.Errorf("badge: got %q, want it to name the tls category (like error: timeout)", c.Badge)
	}
	waitAllChips(t, page, name, "error")
}
