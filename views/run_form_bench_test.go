package views_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// BenchmarkRunForm builds and renders the form of a tool with 30
// properties of every kind, as one Run click does.
func BenchmarkRunForm(b *testing.B) {
	kinds := []string{`{"type":"string","description":"d"}`, `{"type":"integer","minimum":1,"maximum":9,"default":3}`,
		`{"type":"boolean"}`, `{"enum":["a","b","c"]}`, `{"type":"object"}`, `{"type":"number"}`}
	var props []string
	for i := range 30 {
		props = append(props, fmt.Sprintf(`"p%d":%s`, i, kinds[i%len(kinds)]))
	}
	tool := domain.Tool{Name: "t", InputSchema: []byte(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p := views.NewRunFormProps(views.RunFormInput{Server: "s", Tool: tool, Action: "/run"})
		if err := views.RunForm(p).Render(ctx, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
