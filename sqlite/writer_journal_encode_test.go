package sqlite

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// referenceEntry encodes an entry the plain way, with encoding/json
// throughout, for encodeEntry to be compared with.
func referenceEntry(t *testing.T, user, workspace, id string, version int64, inv, audit []any) []byte {
	t.Helper()
	enc := func(args []any) []json.RawMessage {
		out := make([]json.RawMessage, len(args))
		for i, a := range args {
			var v any = a
			switch a := a.(type) {
			case []byte:
				v = map[string]string{"b": base64.StdEncoding.EncodeToString(a)}
			case int64:
				out[i] = strconv.AppendInt(nil, a, 10)
				continue
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = b
		}
		return out
	}
	line, err := json.Marshal(journalEntry{User: user, Workspace: workspace, ID: id, Version: version,
		Inv: enc(inv), Audit: enc(audit)})
	if err != nil {
		t.Fatal(err)
	}
	return append(line, '\n')
}

// A journal line reads back as the entry encoding/json would have
// written, whatever the strings hold: quotes, backslashes, control
// characters, HTML, other scripts, invalid UTF-8.
func TestJournalEntryEncodesAsJSONWould(t *testing.T) {
	strs := []string{"", "plain-id_123", `quo"te`, `back\slash`, "tab\tnew\nline\x00nul\x1f", "<b>&amp;</b>",
		"héllo 世界 🎉", "bad \xff\xfe utf-8", "\u2028\u2029", "\x7f del"}
	var inv []any
	for _, s := range strs {
		inv = append(inv, s)
	}
	inv = append(inv, nil, true, false, int64(-7), int64(1<<62), []byte{0, 1, 2, 255}, []byte{})
	audit := []any{"user", "ws", int64(3), nil, []byte(`{"content":[]}`)}
	for _, who := range strs {
		got, err := encodeEntry(who, "work\"space", who+"-id", 42, inv, audit)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(got, []byte("}\n")) || bytes.Count(got, []byte("\n")) != 1 {
			t.Fatalf("entry %q is not one line", got)
		}
		want := referenceEntry(t, who, "work\"space", who+"-id", 42, inv, audit)
		var g, w journalEntry
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("entry %q: %v", got, err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if g.User != w.User || g.Workspace != w.Workspace || g.ID != w.ID || g.Version != w.Version {
			t.Errorf("entry header %+v, want %+v", g, w)
		}
		for name, pair := range map[string][2][]json.RawMessage{"inv": {g.Inv, w.Inv}, "audit": {g.Audit, w.Audit}} {
			ga, err := decodeArgs(pair[0])
			if err != nil {
				t.Fatal(err)
			}
			wa, err := decodeArgs(pair[1])
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(ga, wa) {
				t.Errorf("%s arguments %#v, want %#v", name, ga, wa)
			}
		}
	}
	if _, err := encodeEntry("u", "w", "id", 1, []any{3.5}, nil); err == nil {
		t.Error("a float: got nil error, want one (the store never writes floats)")
	}
}

func BenchmarkJournalEntry(b *testing.B) {
	inv := []any{"local", "bench", "0123456789abcdef", "", "m1", "t1", "demo", "echo", `{"message":"hello"}`,
		"success", nil, []byte(`{"content":[{"type":"text","text":"hello"}]}`), false, int64(44), "", "", "",
		int64(1764650000000), int64(1764650000001), int64(12), nil, "gateway", "", "", "", "owner"}
	audit := []any{"0123456789abcdef", "local", "bench", "demo", "echo", "e3b0c44298fc1c149afbf4c8996fb924",
		int64(1764650000000), int64(1764650000001), "success"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeEntry("local", "bench", "0123456789abcdef", 12, inv, audit); err != nil {
			b.Fatal(err)
		}
	}
}
