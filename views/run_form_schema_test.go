package views_test

import (
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/views"
)

func TestRunFieldsFromSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		want   []views.RunFieldSpec
	}{
		{"missing-schema-has-no-fields", ``, nil},
		{"not-json-has-no-fields", `{`, nil},
		{"no-properties-has-no-fields", `{"type":"object"}`, nil},
		{"string-required-with-description", `{"type":"object","properties":{"message":{"type":"string","description":"Text to send back."}},"required":["message"]}`,
			[]views.RunFieldSpec{{Name: "message", Kind: views.RunText, Required: true, Description: "Text to send back."}}},
		{"required-with-default-is-not-required-of-the-person", `{"properties":{"scale":{"type":"string","enum":["css","device"],"default":"css"}},"required":["scale"]}`,
			[]views.RunFieldSpec{{Name: "scale", Kind: views.RunRadio, Enum: []string{`"css"`, `"device"`}, Default: `"css"`}}},
		{"string-format-pattern-default-title", `{"properties":{"mail":{"type":"string","title":"E-mail","format":"email","pattern":"^.+@.+$","default":"a@b.c"}}}`,
			[]views.RunFieldSpec{{Name: "mail", Title: "E-mail", Kind: views.RunText, Format: "email", Pattern: "^.+@.+$", Default: `"a@b.c"`}}},
		{"integer-bounds-default", `{"properties":{"steps":{"type":"integer","minimum":1,"maximum":20,"default":5}}}`,
			[]views.RunFieldSpec{{Name: "steps", Kind: views.RunInteger, Min: "1", Max: "20", Step: "1", Default: "5"}}},
		{"number-multiple-of", `{"properties":{"ratio":{"type":"number","minimum":0.5,"multipleOf":0.25}}}`,
			[]views.RunFieldSpec{{Name: "ratio", Kind: views.RunNumber, Min: "0.5", Step: "0.25"}}},
		{"number-without-bounds-steps-any", `{"properties":{"a":{"type":"number"}}}`,
			[]views.RunFieldSpec{{Name: "a", Kind: views.RunNumber, Step: "any"}}},
		{"nullable-type-counts-as-its-type", `{"properties":{"n":{"type":["null","integer"]}}}`,
			[]views.RunFieldSpec{{Name: "n", Kind: views.RunInteger, Step: "1"}}},
		{"boolean-is-a-switch", `{"properties":{"force":{"type":"boolean","default":true}}}`,
			[]views.RunFieldSpec{{Name: "force", Kind: views.RunSwitch, Default: "true"}}},
		{"enum-of-five-is-a-segmented-control", `{"properties":{"o":{"type":"string","enum":["a","b","c","d","e"]}}}`,
			[]views.RunFieldSpec{{Name: "o", Kind: views.RunRadio, Enum: []string{`"a"`, `"b"`, `"c"`, `"d"`, `"e"`}}}},
		{"enum-of-six-is-a-select", `{"properties":{"o":{"enum":["a","b","c","d","e","f"]}}}`,
			[]views.RunFieldSpec{{Name: "o", Kind: views.RunSelect, Enum: []string{`"a"`, `"b"`, `"c"`, `"d"`, `"e"`, `"f"`}}}},
		{"enum-of-numbers", `{"properties":{"n":{"type":"integer","enum":[1,2],"default":2}}}`,
			[]views.RunFieldSpec{{Name: "n", Kind: views.RunRadio, Enum: []string{"1", "2"}, Default: "2"}}},
		{"object-is-a-json-editor", `{"properties":{"filter":{"type":"object","properties":{"tags":{"type":"array"}}}}}`,
			[]views.RunFieldSpec{{Name: "filter", Kind: views.RunJSON}}},
		{"array-is-a-json-editor-with-default", `{"properties":{"tags":{"type":"array","items":{"type":"string"},"default":["x"]}}}`,
			[]views.RunFieldSpec{{Name: "tags", Kind: views.RunJSON, Default: `["x"]`}}},
		{"union-is-a-json-editor", `{"properties":{"v":{"type":["string","number"]}}}`,
			[]views.RunFieldSpec{{Name: "v", Kind: views.RunJSON}}},
		{"untyped-is-a-json-editor", `{"properties":{"v":{}}}`,
			[]views.RunFieldSpec{{Name: "v", Kind: views.RunJSON}}},
		{"schema-order-is-kept", `{"properties":{"z":{"type":"string"},"a":{"type":"string"},"m":{"type":"boolean"}},"required":["a"]}`,
			[]views.RunFieldSpec{{Name: "z", Kind: views.RunText}, {Name: "a", Kind: views.RunText, Required: true}, {Name: "m", Kind: views.RunSwitch}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := views.RunFieldsFromSchema([]byte(tt.schema))
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDefaultRunRaw(t *testing.T) {
	t.Parallel()
	specs := views.RunFieldsFromSchema([]byte(`{"properties":{"b":{"type":"integer","default":5},"x":{"type":"string"},"a":{"type":"object","default":{"k":[1]}}}}`))
	want := "{\n  \"b\": 5,\n  \"a\": {\n    \"k\": [\n      1\n    ]\n  }\n}"
	if got := views.DefaultRunRaw(specs); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := views.DefaultRunRaw(nil); got != "{}" {
		t.Errorf("no fields: got %q, want {}", got)
	}
}

func TestPresets(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"", "material3"}, {"nope", "material3"}, {"brutalist", "brutalist"}, {"terminal_classic", "terminal_classic"},
	} {
		if got := views.NormalPreset(tt.in); got != tt.want {
			t.Errorf("NormalPreset(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
	opts := views.PresetOptions("glassmorphism")
	if len(opts) != 7 {
		t.Fatalf("got %d presets, want 7", len(opts))
	}
	for _, o := range opts {
		if o.Selected != (o.Value == "glassmorphism") {
			t.Errorf("%s selected: got %v", o.Value, o.Selected)
		}
	}
}
