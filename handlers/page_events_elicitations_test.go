package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/views"
)

// The drawer loads its questions of no call once and never polls; the
// page stream sends the server's list, out of band on its drawer event,
// when a question arrives and when it is answered. The forms are
// preserved, so what a person types survives another question's arrival.
func TestDrawerElicitationsRideThePageEvents(t *testing.T) {
	svc := domain.NewElicitations(domain.ElicitationsOptions{})
	f := newFixture(t, withElicitations(svc))
	f.connect(t, stdio("srv"), domain.Capabilities{})

	r := f.ui(t, http.MethodGet, handlers.ServerPath(handlers.PathUIDrawer, "srv"), nil, "en")
	list := r.doc.Find(`[data-testid="drawer-elicitations"]`)
	if list.Length() != 1 || list.AttrOr("id", "") != views.DrawerElicitationsID("srv") {
		t.Fatalf("drawer list %d (id %q), want one with its id", list.Length(), list.AttrOr("id", ""))
	}
	if got := list.AttrOr("hx-trigger", ""); got != "load" {
		t.Errorf("hx-trigger %q, want load only: the stream keeps the list current", got)
	}
	if got := list.AttrOr("hx-get", ""); got != handlers.ServerPath(handlers.PathUIServerElicitations, "srv") {
		t.Errorf("first render from %q", got)
	}

	s := f.openPageEvents(t, nil)
	s.until(t, "the full state", func(fr sseFrame) bool { return isFullState(fragment(t, fr)) })
	e, a := ask(t, svc, `{"message":"Who <b>are</b> you?","requestedSchema":`+elicitSchema+`}`)
	fr, _ := s.until(t, "the drawer's questions", func(fr sseFrame) bool {
		return fr.Event == views.DrawerEvent("srv") && strings.Contains(fr.Data, views.DrawerElicitationsID("srv"))
	})
	doc := fragment(t, fr)
	oob := doc.Find(`#` + views.DrawerElicitationsID("srv"))
	if oob.AttrOr("hx-swap-oob", "") != "innerHTML" {
		t.Fatalf("got %q, want the list's content swapped out of band", fr.Data)
	}
	form := oob.Find(`[data-testid="elicitation-form"]`)
	if form.Length() != 1 {
		t.Fatalf("forms: %d, want the question's", form.Length())
	}
	if _, ok := form.Attr("hx-preserve"); !ok || !strings.Contains(form.AttrOr("id", ""), e.ID) {
		t.Errorf("form id %q preserved=%v; want it kept by its question", form.AttrOr("id", ""), ok)
	}
	if got := form.Find(`[data-testid="elicitation-message"]`).Text(); got != "Who <b>are</b> you?" {
		t.Errorf("message %q; want the server's text, escaped", got)
	}

	answer := strings.Replace(handlers.PathUIElicitation, ":id", e.ID, 1)
	form2 := url.Values{"action": {"decline"}}
	if resp := f.postFormTo(t, answer, form2); resp.code != http.StatusOK {
		t.Fatalf("answer: %d %s", resp.code, resp.body)
	}
	a.wait(t)
	fr, _ = s.until(t, "the emptied list", func(fr sseFrame) bool {
		return fr.Event == views.DrawerEvent("srv") && strings.Contains(fr.Data, views.DrawerElicitationsID("srv"))
	})
	if n := fragment(t, fr).Find(`[data-testid="elicitation-form"]`).Length(); n != 0 {
		t.Errorf("after the answer the list still has %d forms: %q", n, fr.Data)
	}
}
