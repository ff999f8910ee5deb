package main

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestLineReaderSkipsOverlongLines checks that one message over the limit
// is dropped whole and reported, and the messages around it still arrive.
func TestLineReaderSkipsOverlongLines(t *testing.T) {
	in := `{"a":1}` + "\n\n" + `{"b":"` + strings.Repeat("x", 200<<10) + `"}` + "\r\n" + `{"c":3}`
	r := newLineReader(strings.NewReader(in), 1024)
	var got []string
	for {
		line, err := r.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, errLineTooLong) {
			got = append(got, "too long")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	want := []string{`{"a":1}`, "too long", `{"c":3}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestReadEvents checks the event stream parser: multi-line data is one
// message written on one line, events of other names and data that is
// not JSON-RPC are skipped, and an event over the limit ends the stream.
func TestReadEvents(t *testing.T) {
	stream := ": a comment\n" +
		"event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\ndata:  \"method\":\"a\"}\n\n" +
		"event: ping\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"skipped\"}\n\n" +
		"data: {\"not\":\"json-rpc\"}\n\n" +
		"data: not json\n\n" +
		"data:{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\r\n\r\n" +
		"data: {\"jsonrpc\":\"2.0\",\"method\":\"last, without a blank line\"}"
	var got []string
	if err := readEvents(strings.NewReader(stream), 1024, func(b []byte) { got = append(got, string(b)) }); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"jsonrpc":"2.0","method":"a"}`, `{"jsonrpc":"2.0","id":2,"result":{}}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
	big := "data: " + strings.Repeat("x", 600) + "\ndata: " + strings.Repeat("x", 600) + "\n\n"
	if err := readEvents(strings.NewReader(big), 1024, func([]byte) {}); err == nil {
		t.Fatal("an event over the limit was read, want an error")
	}
}
