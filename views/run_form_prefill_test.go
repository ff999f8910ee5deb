package views_test

import (
	"encoding/json"
	"maps"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

func TestRunValuesFromArgs(t *testing.T) {
	specs := views.RunFieldsFromSchema([]byte(`{"type":"object","properties":{
		"message":{"type":"string"},"steps":{"type":"integer"},"force":{"type":"boolean"},
		"order":{"enum":["asc","desc"]},"filter":{"type":"object"}}}`))
	tests := []struct {
		name string
		args string
		want map[string]string
		fits bool
	}{
		{"every-kind", `{"message":"hi","steps":7,"force":true,"order":"desc","filter":{"a":[1]}}`,
			map[string]string{"message": "hi", "steps": "7", "force": "true", "order": `"desc"`, "filter": "{\n  \"a\": [\n    1\n  ]\n}"}, true},
		{"switch-off-is-empty", `{"force":false}`, map[string]string{"force": ""}, true},
		{"missing-left-out", `{}`, map[string]string{}, true},
		{"unknown-argument-goes-raw", `{"message":"hi","extra":1}`, nil, false},
		{"string-in-number-goes-raw", `{"steps":"seven"}`, nil, false},
		{"value-outside-enum-goes-raw", `{"order":"sideways"}`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, fits := views.RunValuesFromArgs(specs, json.RawMessage(tt.args))
			if fits != tt.fits {
				t.Fatalf("fits: got %v, want %v", fits, tt.fits)
			}
			if tt.fits && !maps.Equal(got, tt.want) {
				t.Errorf("values: got %q, want %q", got, tt.want)
			}
		})
	}
	if got := views.RunRawFromArgs(nil); got != "{}" {
		t.Errorf("raw of no arguments: got %q, want {}", got)
	}
}

// After Run the form stays, and a slot under it waits for the call's card.
func TestRunFormStartedSlot(t *testing.T) {
	p := views.NewRunFormProps(views.RunFormInput{Server: "demo", Tool: domain.Tool{Name: "echo"}, Action: "/run"})
	p.StartedID = "inv-42"
	doc := renderComponent(t, "en", views.RunStarted(views.RunStartedProps{StatusID: "s", Tool: "echo", InvocationID: "inv-42", Form: p}))
	slot := doc.Find(`[data-testid="run-form"] [data-testid="run-card"] [data-testid="run-card-slot"]`)
	if got := slot.AttrOr("data-invocation", ""); got != "inv-42" {
		t.Errorf("slot: got invocation %q, want inv-42", got)
	}
	if got := slot.Find(`[data-testid="run-card-waiting"]`).Text(); got != "echo started; its card appears here." {
		t.Errorf("waiting note: got %q", got)
	}
	if doc.Find(`#s[hx-swap-oob]`).Length() != 1 {
		t.Errorf("no out-of-band announcement in the tool's status region")
	}
}
