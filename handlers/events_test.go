package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
)

var frameRE = regexp.MustCompile(`^event: status\nid: [0-9]+\ndata: \{[^\n]*\}$`)

// statusOf decodes a status frame, checking its wire format first.
func statusOf(t *testing.T, fr sseFrame) handlers.StatusDTO {
	t.Helper()
	if !frameRE.MatchString(fr.Raw) {
		t.Fatalf("frame format: got %q, want event, id and one data line", fr.Raw)
	}
	s := decode[handlers.StatusDTO](t, []byte(fr.Data))
	if got, want := fr.ID, strconv.FormatUint(s.Version, 10); got != want {
		t.Errorf("frame id: got %s, want the version %s", got, want)
	}
	return s
}

func TestEventsStartWithFullList(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("alpha"), domain.Capabilities{})
	disabled := stdio("beta")
	disabled.Disabled = true
	f.attach(t, disabled, stdio("gamma")) // gamma stays connecting

	s := f.openEvents(t)
	for key, want := range map[string]string{
		"Content-Type":      "text/event-stream",
		"Cache-Control":     "no-cache",
		"X-Accel-Buffering": "no",
	} {
		if got := s.header.Get(key); got != want {
			t.Errorf("header %s: got %q, want %q", key, got, want)
		}
	}

	want := map[string]string{}
	var versions []uint64
	for _, st := range f.fleet.Hub().List() {
		want[st.ServerName] = string(st.State) + "@" + strconv.FormatUint(st.Version, 10)
	}
	got := map[string]string{}
	for range want {
		st := statusOf(t, s.next(t))
		got[st.ServerName] = st.State + "@" + strconv.FormatUint(st.Version, 10)
		versions = append(versions, st.Version)
	}
	if len(got) != len(want) || got["alpha"] != want["alpha"] || got["beta"] != want["beta"] || got["gamma"] != want["gamma"] {
		t.Errorf("first frames: got %v, want %v", got, want)
	}
	if !slices.IsSorted(versions) {
		t.Errorf("first frames' versions: got %v, want ascending", versions)
	}
}

func TestEventsSlowClientEndsOnNewestSnapshot(t *testing.T) {
	f := newFixture(t)
	f.attach(t, stdio("burst"))
	s := f.openEvents(t)
	if st := statusOf(t, s.next(t)); st.ServerName != "burst" {
		t.Fatalf("first frame: got server %q, want burst", st.ServerName)
	}

	// The client reads nothing more until the burst is over: if any part
	// of the server waited for it, the burst could not finish.
	burst := make(chan domain.Status, 1)
	go func() {
		ctx := context.Background()
		var last domain.Status
		var err error
		for i := range 1000 {
			if i%2 == 0 {
				last, err = f.fleet.Disable(ctx, "burst")
			} else {
				last, err = f.fleet.Enable(ctx, "burst")
			}
			if err != nil {
				t.Errorf("command %d: %v", i, err)
				break
			}
		}
		if err == nil {
			last, err = f.fleet.Disable(ctx, "burst")
			if err != nil {
				t.Errorf("final disable: %v", err)
			}
		}
		burst <- last
	}()
	var final domain.Status
	select {
	case final = <-burst:
	case <-time.After(30 * time.Second):
		t.Fatalf("burst of 1,000 commands did not finish while the client was paused")
	}
	if final.State != domain.StateDisabled {
		t.Fatalf("final command: got state %q, want disabled", final.State)
	}

	var prev uint64
	fr, seen := s.until(t, "version "+strconv.FormatUint(final.Version, 10), func(fr sseFrame) bool {
		st := statusOf(t, fr)
		if st.Version <= prev {
			t.Errorf("versions out of order: %d after %d", st.Version, prev)
		}
		prev = st.Version
		return st.Version >= final.Version
	})
	st := statusOf(t, fr)
	if st.Version != final.Version || st.State != "disabled" || st.Phase != "stopped" {
		t.Errorf("last frame: got version %d state %q phase %q, want %d disabled stopped", st.Version, st.State, st.Phase, final.Version)
	}
	t.Logf("client read %d frames for 1,001 transitions", len(seen))
}

func TestEventsSendDisposedServers(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	s := f.openEvents(t)
	statusOf(t, s.next(t))

	if status, body := f.do(t, http.MethodDelete, handlers.ServerPath(handlers.PathServer, "files"), nil); status != http.StatusNoContent {
		t.Fatalf("DELETE: got %d %s, want 204", status, body)
	}
	s.until(t, "phase disposed", func(fr sseFrame) bool {
		st := statusOf(t, fr)
		return st.ServerName == "files" && st.Phase == string(domain.PhaseDisposed)
	})
}

func TestEventsHeartbeat(t *testing.T) {
	f := newFixture(t, func(o *handlers.Options) { o.Heartbeat = 20 * time.Millisecond })
	s := f.openEvents(t)
	fr := s.next(t) // an empty fleet has nothing to send but pings
	if fr.Raw != ": ping" || fr.Comment != "ping" {
		t.Errorf("frame: got %q, want the comment %q", fr.Raw, ": ping")
	}
}

func TestEventsEndAtShutdown(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	s := f.openEvents(t)
	statusOf(t, s.next(t))
	f.shutdown()
	s.waitEnded(t)
}

func TestEventsEndWhenClientLeaves(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	s := f.openEvents(t)
	statusOf(t, s.next(t))
	s.cancel()

	// Close waits for every handler; a stream that outlived its client
	// would hold it forever.
	closed := make(chan struct{})
	go func() {
		f.srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(patience):
		t.Fatalf("event handler still running %v after its client left", patience)
	}
}

func TestEventsDataIsCompleteStatus(t *testing.T) {
	f := newFixture(t)
	f.connect(t, stdio("files"), domain.Capabilities{})
	s := f.openEvents(t)
	fr := s.next(t)
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fr.Data), &fields); err != nil {
		t.Fatalf("decode data: %v", err)
	}
	for _, key := range statusKeys {
		if _, ok := fields[key]; !ok {
			t.Errorf("data lacks %q: %s", key, fr.Data)
		}
	}
}
