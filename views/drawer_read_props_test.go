package views

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNewResourceReadBounds(t *testing.T) {
	big := strings.Repeat("a", InlineTextCap*5)
	contents := []map[string]any{}
	for range MaxContentItems + 3 {
		contents = append(contents, map[string]any{"uri": "x://1", "mimeType": "text/plain", "text": big})
	}
	raw, _ := json.Marshal(map[string]any{"contents": contents})
	p := NewResourceRead("x://1", raw, "/raw")
	if len(p.Items) != MaxContentItems || p.More != 3 || !p.Cut {
		t.Fatalf("got %d items, %d more, cut %v; want %d, 3, true", len(p.Items), p.More, p.Cut, MaxContentItems)
	}
	total := 0
	for _, it := range p.Items {
		total += len(it.Code) + len(it.HTML)
	}
	if total > CardTextBudget {
		t.Errorf("text shown: got %d bytes, want at most %d", total, CardTextBudget)
	}
}

func TestNewResourceReadSmallIsWhole(t *testing.T) {
	raw := json.RawMessage(`{"contents":[{"uri":"x://md","mimeType":"text/markdown","text":"# Hi"}]}`)
	p := NewResourceRead("x://md", raw, "/raw")
	if len(p.Items) != 1 || p.Cut || p.More != 0 {
		t.Fatalf("got %+v, want one whole item", p)
	}
	if !strings.Contains(p.Items[0].HTML, "Hi</h") {
		t.Errorf("HTML: got %q, want the Markdown rendered", p.Items[0].HTML)
	}
}

func TestNewPromptMessagesRoles(t *testing.T) {
	raw := json.RawMessage(`{"description":"d","messages":[
		{"role":"user","content":{"type":"text","text":"q"}},
		{"role":"assistant","content":{"type":"resource_link","uri":"x://a","name":"a"}},
		{"role":"system","content":{"type":"text","text":"s"}}]}`)
	p := NewPromptMessages("k", raw, func(uri string) string { return "/read?uri=" + uri })
	var got []string
	for _, m := range p.Messages {
		got = append(got, m.Role+"="+m.RoleID+"/"+roleClass(m.RoleID))
	}
	if want := "user=CapsRoleUser/user,assistant=CapsRoleAssistant/assistant,system=/other"; strings.Join(got, ",") != want {
		t.Errorf("roles: got %q, want %q", got, want)
	}
	l := p.Messages[1].Item.Link
	if l == nil || l.ReadURL != "/read?uri=x://a" || l.PreviewID != "prompt-preview-k-1" {
		t.Errorf("link: got %+v, want a previewable link with a unique id", l)
	}
}

func TestCompletionValuesBounded(t *testing.T) {
	vals := make([]string, 150)
	for i := range vals {
		vals[i] = strings.Repeat("v", MaxShownName+10)
	}
	raw, _ := json.Marshal(map[string]any{"completion": map[string]any{"values": vals}})
	got := CompletionValues(raw)
	if len(got) != MaxCompletionValues {
		t.Fatalf("values: got %d, want %d", len(got), MaxCompletionValues)
	}
	if len(got[0]) > MaxShownName+len("…") {
		t.Errorf("value length: got %d, want it cut", len(got[0]))
	}
	if CompletionValues(json.RawMessage(`not json`)) == nil {
		t.Error("a broken answer: got nil, want an empty list")
	}
}

func TestNewPromptFormProps(t *testing.T) {
	f := NewPromptFormProps("k", PromptProps{Name: "p", Args: []PromptArgProps{{Name: "a b", Required: true, Description: "d"}, {Name: "c"}}},
		"/get", "/complete")
	if len(f.Fields) != 2 || f.Fields[0].CompleteURL != "/complete?complete=a+b" || f.Fields[0].DescID == "" || f.Fields[1].DescID != "" {
		t.Errorf("fields: got %+v", f.Fields)
	}
	if f.Fields[0].InputID == f.Fields[1].InputID || f.Fields[0].ListID == f.Fields[0].InputID {
		t.Errorf("ids clash: %+v", f.Fields)
	}
	if PromptArgField("complete") != "arg.complete" {
		t.Error("an argument named complete would clash with the completion parameter")
	}
}
