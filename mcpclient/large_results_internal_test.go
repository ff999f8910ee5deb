package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mark3labs/mcp-go/mcp"
)

// readAll reads everything d passes on, in reads of size bytes, and the
// error it ended with.
func readAll(d *divertReader, size int) (string, error) {
	var out bytes.Buffer
	b := make([]byte, size)
	for {
		n, err := d.Read(b)
		out.Write(b[:n])
		if err != nil {
			return out.String(), err
		}
	}
}

func newDivertReader(r io.Reader, l *largeResults) *divertReader {
	return &divertReader{r: r, large: l, above: 40}
}

func TestDivertReaderPassesLinesThroughAsSent(t *testing.T) {
	t.Parallel()
	long := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", 100) + `"}}`
	in := "{\"a\":1}\r\n\n" + strings.Repeat("z", 40) + "\n" + long + "\n" + `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}` + "\n"
	for name, reader := range map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one-byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
	} {
		for _, size := range []int{7, 4096} {
			got, err := readAll(newDivertReader(reader(strings.NewReader(in)), &largeResults{}), size)
			if got != in || err != io.EOF {
				t.Errorf("%s, reads of %d: got %q, %v; want the input and EOF", name, size, got, err)
			}
		}
	}
}

func TestDivertReaderKeepsAnExpectedLargeResult(t *testing.T) {
	t.Parallel()
	result := `{"content":[{"type":"text","text":"` + strings.Repeat(`x\"\\`, 30) + `"}],"isError":false}`
	tests := []struct{ name, line, id, stubLine string }{
		{"id-first", `{"jsonrpc":"2.0","id":7,"result":` + result + `}`, "int64:7",
			`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`},
		{"result-first-string-id", `{"result": ` + result + ` , "jsonrpc":"2.0","id":"a\"b"}`, `string:a"b`,
			`{"jsonrpc":"2.0","id":"a\"b","result":{"content":[]}}`},
	}
	for _, tt := range tests {
		l := &largeResults{}
		for _, size := range []int{7, 4096} {
			l.expect(tt.id, `{"content":[]}`)
			in := "{}\n" + tt.line + "\r\n{}\n"
			got, err := readAll(newDivertReader(iotest.HalfReader(strings.NewReader(in)), l), size)
			if want := "{}\n" + tt.stubLine + "\n{}\n"; got != want || err != io.EOF {
				t.Errorf("%s, reads of %d: got %q, %v; want %q, EOF", tt.name, size, got, err, want)
			}
			if res, ok := l.take(tt.id); !ok || string(res) != result {
				t.Errorf("%s, reads of %d: take = %q, %v; want the result as sent", tt.name, size, res, ok)
			}
			if _, ok := l.take(tt.id); ok {
				t.Errorf("%s: a result was taken twice", tt.name)
			}
		}
	}
}

func TestDivertReaderPassesOnWhatItDoesNotExpect(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("p", 60)
	lines := map[string]string{
		"unexpected-id":  `{"jsonrpc":"2.0","id":8,"result":{"content":[],"pad":"` + pad + `"}}`,
		"error":          `{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"` + pad + `"}}`,
		"request":        `{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","result":{},"params":{"p":"` + pad + `"}}`,
		"invalid":        `{"jsonrpc":"2.0","id":7,"result":{"content":[` + pad,
		"input-required": `{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","p":"` + pad + `"}}`,
		"not-an-object":  `["` + pad + `"]`,
	}
	for name, line := range lines {
		l := &largeResults{}
		l.expect("int64:7", `{"content":[]}`)
		in := line + "\n"
		got, err := readAll(newDivertReader(strings.NewReader(in), l), 4096)
		if got != in || err != io.EOF {
			t.Errorf("%s: got %q, %v; want the line as sent", name, got, err)
		}
		if _, ok := l.take("int64:7"); ok {
			t.Errorf("%s: a result was kept", name)
		}
	}
}

// A read that fails passes on the lines that ended before it, then the
// error, and drops the line it cut, as mcp-go does.
func TestDivertReaderEndsWithItsReadersError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	for _, cut := range []string{"partial", strings.Repeat("q", 100)} {
		r := io.MultiReader(strings.NewReader("{}\n"+cut), iotest.ErrReader(boom))
		got, err := readAll(newDivertReader(r, &largeResults{}), 7)
		if got != "{}\n" || !errors.Is(err, boom) {
			t.Errorf("cut %d bytes: got %q, %v; want the first line and the error", len(cut), got, err)
		}
	}
}

// mcp-go decodes every stub without an error, so that a diverted call
// reads to it as an ordinary answer.
func TestDivertStubsDecode(t *testing.T) {
	t.Parallel()
	parse := map[string]func(*json.RawMessage) error{
		string(mcp.MethodToolsCall):     func(r *json.RawMessage) error { _, err := mcp.ParseCallToolResult(r); return err },
		string(mcp.MethodResourcesRead): func(r *json.RawMessage) error { _, err := mcp.ParseReadResourceResult(r); return err },
		string(mcp.MethodTasksResult):   func(r *json.RawMessage) error { _, err := mcp.ParseTaskResultResult(r); return err },
	}
	for method, stub := range divertStubs {
		raw := json.RawMessage(stub)
		if p, ok := parse[method]; !ok {
			t.Errorf("%s: no decoder in this test", method)
		} else if err := p(&raw); err != nil {
			t.Errorf("%s: mcp-go fails to decode the stub %s: %v", method, stub, err)
		}
	}
}
