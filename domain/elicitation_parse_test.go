package domain_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestParseElicitation(t *testing.T) {
	tests := []struct {
		name, params, wantMode, wantErr string
	}{
		{"form-without-mode", `{"message":"m","requestedSchema":{"type":"object"}}`, domain.ElicitForm, ""},
		{"form-without-schema", `{"message":"m"}`, domain.ElicitForm, ""},
		{"url", `{"mode":"url","message":"m","url":"https://example.com/x","elicitationId":"e1"}`, domain.ElicitURL, ""},
		{"url-not-http", `{"mode":"url","message":"m","url":"javascript:alert(1)"}`, "", "not an http(s) address"},
		{"unknown-mode", `{"mode":"carrier-pigeon"}`, "", "unknown elicitation mode"},
		{"not-json", `[`, "", "read the elicitation params"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := domain.ParseElicitation("srv", json.RawMessage(tt.params))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || e.Mode != tt.wantMode || e.Server != "srv" {
				t.Fatalf("got %+v, %v; want mode %s", e, err, tt.wantMode)
			}
			if e.Mode == domain.ElicitForm && len(e.RequestedSchema) == 0 {
				t.Errorf("form has no schema")
			}
		})
	}
}

// A server's question is bounded: a URL whose host Go and a browser could
// read differently, or a schema too large to build a form from, is
// refused; a host in other scripts is accepted (the card shows its
// punycode); a long message is cut, and its length kept.
func TestParseElicitationBounds(t *testing.T) {
	refused := map[string]string{
		"backslash":     `{"mode":"url","url":"https://evil.example\\@good.example/"}`,
		"tab":           `{"mode":"url","url":"https://good.example\tx/"}`,
		"no-host":       `{"mode":"url","url":"https:///path"}`,
		"userinfo":      `{"mode":"url","url":"https://good.example@evil.example/"}`,
		"javascript":    `{"mode":"url","url":"javascript:alert(1)"}`,
		"nbsp":          `{"mode":"url","url":"https://good.example\u00a0/"}`,
		"c1-control":    `{"mode":"url","url":"https://good.example/\u0085"}`,
		"bidi-override": `{"mode":"url","url":"https://good.example/\u202egpj.exe"}`,
		"encoded-space": `{"mode":"url","url":"https://good%20.example/"}`,
		"long-url":      `{"mode":"url","url":"https://example.com/` + strings.Repeat("a", 9000) + `"}`,
		"long-id":       `{"mode":"url","url":"https://example.com/","elicitationId":"` + strings.Repeat("i", 2000) + `"}`,
		"large-schema":  `{"requestedSchema":{"type":"object","description":"` + strings.Repeat("d", 70000) + `"}}`,
	}
	for name, params := range refused {
		if e, err := domain.ParseElicitation("srv", json.RawMessage(params)); err == nil {
			t.Errorf("%s: accepted as %+v", name, e.URL)
		}
	}
	accepted := map[string]string{
		"homograph":    "https://g\u043e\u043egle.com/",
		"encoded-host": "https://g%D0%BE%D0%BEgle.com/",
		"cjk-host":     "https://\u4f8b\u3048.jp:8443/a?b=c",
		"punycode":     "https://xn--r8jz45g.jp/",
	}
	for name, u := range accepted {
		e, err := domain.ParseElicitation("srv", json.RawMessage(`{"mode":"url","url":"`+u+`"}`))
		if err != nil || e.URL == "" {
			t.Errorf("%s: got %v, want it accepted", name, err)
		}
	}
	long := strings.Repeat("m", 100000)
	e, err := domain.ParseElicitation("srv", json.RawMessage(`{"message":"`+long+`"}`))
	if err != nil || len(e.Message) != 64<<10 || e.MessageBytes != 100000 {
		t.Errorf("long message: %d of %d bytes, %v; want 65536 of 100000", len(e.Message), e.MessageBytes, err)
	}
	e, err = domain.ParseElicitation("srv", json.RawMessage(`{"message":"`+long[:20000]+`"}`))
	if err != nil || len(e.Message) != 20000 || e.MessageBytes != 20000 {
		t.Errorf("20 KB message: %d of %d bytes, %v; want it whole", len(e.Message), e.MessageBytes, err)
	}
}
