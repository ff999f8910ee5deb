package handlers

import "testing"

// TestAppendSSE pins the one framing every stream uses: an id only when
// given, and one data line per line of data whatever the line break.
func TestAppendSSE(t *testing.T) {
	tests := []struct {
		name, event, id, data string
		want                  string
	}{
		{"json-with-id", "status", "7", `{"a":1}`, "event: status\nid: 7\ndata: {\"a\":1}\n\n"},
		{"html-without-id", "drawer-x", "", "<b>x</b>", "event: drawer-x\ndata: <b>x</b>\n\n"},
		{"empty-data", "e", "", "", "event: e\ndata: \n\n"},
		{"lf-cr-crlf-split", "e", "", "a\nb\rc\r\nd", "event: e\ndata: a\ndata: b\ndata: c\ndata: d\n\n"},
		{"injection-stays-data", "e", "", "x\rid: 99\r\nevent: y", "event: e\ndata: x\ndata: id: 99\ndata: event: y\n\n"},
		{"trailing-break", "e", "", "a\n", "event: e\ndata: a\ndata: \n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendSSE([]byte("prev\n"), tt.event, tt.id, []byte(tt.data))); got != "prev\n"+tt.want {
				t.Errorf("got %q, want %q", got, "prev\n"+tt.want)
			}
		})
	}
}

// TestAppendJSONEventUsesVersionAsID checks the JSON streams' frame.
func TestAppendJSONEventUsesVersionAsID(t *testing.T) {
	got, err := appendJSONEvent(nil, "config", 42, map[string]string{"k": "line\nbreak"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "event: config\nid: 42\ndata: {\"k\":\"line\\nbreak\"}\n\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := appendJSONEvent(nil, "x", 1, func() {}); err == nil {
		t.Error("got no error for a value JSON cannot hold")
	}
}
