package jsonschema_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/jsonschema"
)

// screenshotSchema is what zod-to-json-schema makes of Playwright MCP's
// browser_take_screenshot: a property with a default is also required.
const screenshotSchema = `{
	"$schema": "http://json-schema.org/draft-07/schema#",
	"type": "object",
	"properties": {
		"type": {"type": "string", "enum": ["png", "jpeg"], "default": "png"},
		"scale": {"type": "string", "enum": ["css", "device"], "default": "css"},
		"filename": {"type": "string"}
	},
	"required": ["type", "scale"],
	"additionalProperties": false
}`

func TestFillDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, schema, doc string
		want              string
		wantFilled        []string
	}{
		{"zod-required-with-default", screenshotSchema, `{}`,
			`{"scale":"css","type":"png"}`, []string{"/scale", "/type"}},
		{"typed-members-first-in-their-order", screenshotSchema, `{"filename":"a.png","type":"jpeg"}`,
			`{"filename":"a.png","type":"jpeg","scale":"css"}`, []string{"/scale"}},
		{"nothing-missing-is-untouched", screenshotSchema, `{"scale":"device", "type":"png"}`,
			`{"scale":"device", "type":"png"}`, nil},
		{"no-default-nothing-filled", `{"properties":{"q":{"type":"string"}},"required":["q"]}`, `{}`, `{}`, nil},
		{"nested-object-present", `{"properties":{"opts":{"type":"object","properties":{"depth":{"type":"integer","default":3},"x":{}}}}}`,
			`{"opts":{"x":1}}`, `{"opts":{"x":1,"depth":3}}`, []string{"/opts/depth"}},
		{"nested-object-missing-without-default-stays-missing", `{"properties":{"opts":{"type":"object","properties":{"depth":{"default":3}}}}}`,
			`{}`, `{}`, nil},
		{"missing-object-with-default-object", `{"properties":{"opts":{"type":"object","default":{"a":1},"properties":{"a":{},"b":{"default":true}}}}}`,
			`{}`, `{"opts":{"a":1,"b":true}}`, []string{"/opts"}},
		{"local-ref", `{"$defs":{"level":{"type":"string","default":"info"},"cfg":{"type":"object","properties":{"level":{"$ref":"#/$defs/level"}}}},
			"properties":{"cfg":{"$ref":"#/$defs/cfg"},"top":{"$ref":"#/$defs/level"}}}`,
			`{"cfg":{}}`, `{"cfg":{"level":"info"},"top":"info"}`, []string{"/cfg/level", "/top"}},
		{"draft7-definitions-ref", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"n":{"type":"number","default":0.1000000000000000055511151231257827}},
			"properties":{"n":{"$ref":"#/definitions/n"}}}`,
			`{}`, `{"n":0.1000000000000000055511151231257827}`, []string{"/n"}},
		{"allOf-properties", `{"allOf":[{"properties":{"a":{"default":1}}},{"properties":{"b":{"default":[1,2]}}}]}`,
			`{"c":null}`, `{"c":null,"a":1,"b":[1,2]}`, []string{"/a", "/b"}},
		{"recursive-ref-ends", `{"$defs":{"node":{"type":"object","properties":{"child":{"$ref":"#/$defs/node"},"w":{"default":1}}}},"$ref":"#/$defs/node"}`,
			`{"child":{"child":{"w":5}}}`, `{"child":{"child":{"w":5},"w":1},"w":1}`, []string{"/child/w", "/w"}},
		{"keys-kept-as-written", `{"properties":{"a/b":{"default":"x"}}}`,
			`{"\u00e9":1,"<k>":2}`, `{"\u00e9":1,"<k>":2,"a/b":"x"}`, []string{"/a~1b"}},
		{"not-an-object-is-untouched", screenshotSchema, `[1]`, `[1]`, nil},
	}
	v := jsonschema.New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, filled, err := v.FillDefaults(json.RawMessage(tt.schema), json.RawMessage(tt.doc))
			if err != nil {
				t.Fatalf("FillDefaults: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if !reflect.DeepEqual(filled, tt.wantFilled) {
				t.Errorf("filled %q, want %q", filled, tt.wantFilled)
			}
		})
	}
}

// The filled document passes where the bare one was refused: the reason
// Playwright's screenshot tool was uncallable with {}.
func TestFilledDocumentValidates(t *testing.T) {
	t.Parallel()
	v := jsonschema.New()
	if err := v.Validate(json.RawMessage(screenshotSchema), json.RawMessage(`{}`)); err == nil {
		t.Fatal("{} passed a schema that requires scale; the test proves nothing")
	}
	filled, _, err := v.FillDefaults(json.RawMessage(screenshotSchema), json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(json.RawMessage(screenshotSchema), filled); err != nil {
		t.Errorf("filled %s: %v", filled, err)
	}
}

func TestFillDefaultsRefusesWhatValidateRefuses(t *testing.T) {
	t.Parallel()
	v := jsonschema.New()
	if _, _, err := v.FillDefaults(json.RawMessage(`{"$ref":"https://example.com/s.json"}`), json.RawMessage(`{}`)); !errors.Is(err, jsonschema.ErrRemoteRef) {
		t.Errorf("remote ref: got %v, want ErrRemoteRef", err)
	}
	if _, _, err := v.FillDefaults(json.RawMessage(screenshotSchema), json.RawMessage(`{"a":`)); err == nil {
		t.Error("a document that is not JSON: got nil error")
	}
}
