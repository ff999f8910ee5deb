package mcpserver

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain/domaintest"
)

func TestSealedStateOpensOnlyAsSealed(t *testing.T) {
	key := make([]byte, StateKeySize)
	for i := range key {
		key[i] = byte(i)
	}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s, err := newSealer(key, "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	want := requestState{Held: "h1", Round: 2, Token: "laptop", Session: "s1", Expires: now.Add(time.Minute).UnixMilli()}
	text, err := s.seal(want)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.open(text, now); err != nil || got != want {
		t.Fatalf("open: got %+v, %v; want %+v", got, err, want)
	}
	if again, _ := s.seal(want); again == text {
		t.Error("two seals of one state are equal: the nonce is not fresh")
	}

	other, _ := newSealer(key, "/mcp/demo")
	otherKey, _ := newSealer(nil, "/mcp")
	flipped := []byte(text)
	flipped[len(flipped)/2] ^= 1
	for _, tc := range []struct {
		name string
		s    *sealer
		text string
		now  time.Time
		want error
	}{
		{"tampered", s, string(flipped), now, errStateSeal},
		{"truncated", s, text[:10], now, errStateSeal},
		{"not-base64", s, "!!" + text, now, errStateSeal},
		{"empty", s, "", now, errStateSeal},
		{"other-endpoint", other, text, now, errStateSeal},
		{"other-key", otherKey, text, now, errStateSeal},
		{"expired", s, text, now.Add(time.Minute + time.Millisecond), errStateExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.s.open(tc.text, tc.now); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := newSealer(key[:16], "/mcp"); err == nil {
		t.Error("a 16-byte key was taken; want AES-256 only")
	}
}

func TestEndedCallsAreBounded(t *testing.T) {
	clock := domaintest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	r := newHeldCalls(clock)
	first := &heldCall{id: "first", done: make(chan struct{})}
	r.keep(first)
	close(first.done)
	r.end(first)
	if h, ok := r.find("first"); !ok || h != first {
		t.Fatal("an ended call is not found right after it ended")
	}
	for i := range maxEnded {
		h := &heldCall{id: fmt.Sprint("call-", i), done: make(chan struct{})}
		close(h.done)
		r.keep(h)
	}
	if _, ended := r.size(); ended != maxEnded {
		t.Errorf("ended calls: got %d, want %d", ended, maxEnded)
	}
	if _, ok := r.find("first"); ok {
		t.Error("the oldest ended call is still kept beyond the bound")
	}
	clock.Advance(endedGrace)
	if live, ended := r.size(); live != 0 || ended != maxEnded {
		t.Errorf("before a lookup: got %d live, %d ended", live, ended)
	}
	r.find("x")
	if _, ended := r.size(); ended != 0 {
		t.Errorf("after the grace: got %d ended, want 0", ended)
	}
}
