package mcpclient

import (
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// The tap shows each message whole, however the stream is cut into reads,
// and passes every byte on unchanged.
func TestMessageTapFramesMessages(t *testing.T) {
	const limit = 64
	long := strings.Repeat("x", limit+1)
	tests := []struct {
		name    string
		framing framing
		stream  string
		want    []string
	}{
		{"lines", framingLine, "{\"a\":1}\r\n{\"b\":2}\n{\"c\":3}", []string{`{"a":1}`, `{"b":2}`}},
		{"long-line-skipped", framingLine, long + "\n{\"b\":2}\n", []string{`{"b":2}`}},
		{"events", framingEvent, "event: message\ndata: {\"a\":\ndata:1}\n\n: comment\nid: 7\ndata: {\"b\":2}\r\n\r\n",
			[]string{"{\"a\":\n1}", `{"b":2}`}},
		{"event-at-eof", framingEvent, "data: {\"a\":1}\n", []string{`{"a":1}`}},
		{"long-event-skipped", framingEvent, "data: " + long + "\ndata: more\n\ndata: {}\n\n", []string{`{}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			tap := newMessageTap(iotest.OneByteReader(strings.NewReader(tt.stream)), tt.framing, func(b []byte) {
				got = append(got, string(b))
			})
			tap.limit = limit
			passed, err := io.ReadAll(tap)
			if err != nil || string(passed) != tt.stream {
				t.Errorf("passed %d bytes (%v), want the %d of the stream unchanged", len(passed), err, len(tt.stream))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("messages %q, want %q", got, tt.want)
			}
		})
	}
}

// Only requests serverAsks answers are kept, once each.
func TestSentParamsKeepsAskRequests(t *testing.T) {
	var p sentParams
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"b":1,"a":2}}`,
		`{"jsonrpc":"2.0","id":"s","method":"sampling/createMessage","params":{"n":1.0}}`,
		`{"jsonrpc":"2.0","method":"roots/list"}`,                                // a notification
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,                               // mcp-go's
		`{"jsonrpc":"2.0","id":3,"result":{"text":"\"method\" \"roots/list\""}}`, // a response
	} {
		p.see([]byte(msg))
	}
	if got := len(p.byID); got != 2 {
		t.Errorf("kept %d requests, want 2: %v", got, p.byID)
	}
}
