package demoserver_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/switchboard-mcp/switchboard/demoserver"
)

func TestInitializeReportsNameAndCapabilities(t *testing.T) {
	tests := []struct {
		name     string
		opts     demoserver.Options
		wantName string
	}{
		{"default-name", demoserver.Options{}, demoserver.DefaultName},
		{"custom-name", demoserver.Options{Name: "flaky-one"}, "flaky-one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := client.NewInProcessClient(demoserver.New(tt.opts))
			if err != nil {
				t.Fatalf("NewInProcessClient: %v", err)
			}
			res := initialize(t, c)
			if got := res.ServerInfo.Name; got != tt.wantName {
				t.Errorf("server name: got %q, want %q", got, tt.wantName)
			}
			if got := res.ServerInfo.Version; got != demoserver.Version {
				t.Errorf("server version: got %q, want %q", got, demoserver.Version)
			}
			caps := res.Capabilities
			if caps.Tools == nil || caps.Prompts == nil || caps.Logging == nil {
				t.Errorf("capabilities: got tools=%v prompts=%v logging=%v, want all set", caps.Tools, caps.Prompts, caps.Logging)
			}
			if caps.Resources == nil || !caps.Resources.ListChanged {
				t.Errorf("resources capability: got %+v, want listChanged true", caps.Resources)
			}
		})
	}
}

// hints is the four tool hints as plain bools, so a table can state them.
type hints struct{ readOnly, destructive, idempotent, openWorld bool }

func TestToolsDeclareEveryHint(t *testing.T) {
	tests := []struct {
		tool string
		want hints
	}{
		{"markdown_report", hints{readOnly: true, idempotent: true}},
		{"tiny_image", hints{readOnly: true, idempotent: true}},
		{"short_tone", hints{readOnly: true, idempotent: true}},
		{"resource_links", hints{readOnly: true, idempotent: true}},
		{"embedded_text_resource", hints{readOnly: true, idempotent: true}},
		{"embedded_blob_resource", hints{readOnly: true, idempotent: true}},
		{"structured_weather", hints{readOnly: true, idempotent: true}},
		{"fail_always", hints{readOnly: true, idempotent: true}},
		{"long_task", hints{readOnly: true, idempotent: true}},
		{"echo", hints{readOnly: true, idempotent: true}},
		{"add", hints{readOnly: true, idempotent: true}},
		{"delete_note", hints{destructive: true, idempotent: true}},
		{"fetch_url_stub", hints{readOnly: true, openWorld: true}},
		{"snapshot_settings", hints{readOnly: true, idempotent: true}},
		{"confirm_action", hints{readOnly: true}},
		{"ask_model", hints{readOnly: true}},
		{"list_roots", hints{readOnly: true}},
		{"log_message", hints{readOnly: true, idempotent: true}},
	}
	tools := listTools(t, newClient(t))
	if got, want := len(tools), len(tests); got != want {
		t.Errorf("tool count: got %d, want %d", got, want)
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			tool, ok := tools[tt.tool]
			if !ok {
				t.Fatalf("tool %s not listed", tt.tool)
			}
			if tool.Description == "" {
				t.Errorf("description: got empty, want a sentence")
			}
			if tool.Title == "" || tool.Annotations.Title != tool.Title {
				t.Errorf("title: got %q and annotation title %q, want the same non-empty title", tool.Title, tool.Annotations.Title)
			}
			a := tool.Annotations
			for _, h := range []struct {
				name string
				got  *bool
				want bool
			}{
				{"readOnlyHint", a.ReadOnlyHint, tt.want.readOnly},
				{"destructiveHint", a.DestructiveHint, tt.want.destructive},
				{"idempotentHint", a.IdempotentHint, tt.want.idempotent},
				{"openWorldHint", a.OpenWorldHint, tt.want.openWorld},
			} {
				if h.got == nil {
					t.Errorf("%s: got unset, want %v", h.name, h.want)
				} else if *h.got != h.want {
					t.Errorf("%s: got %v, want %v", h.name, *h.got, h.want)
				}
			}
		})
	}
}

func TestToolInputSchemas(t *testing.T) {
	tests := []struct {
		tool         string
		wantProps    []string
		wantRequired []string
	}{
		{"echo", []string{"message"}, []string{"message"}},
		{"add", []string{"a", "b"}, []string{"a", "b"}},
		{"delete_note", []string{"id"}, []string{"id"}},
		{"fetch_url_stub", []string{"url"}, []string{"url"}},
		{"long_task", []string{"stepMillis", "steps"}, nil},
		{"markdown_report", nil, nil},
		{"snapshot_settings", []string{"scale", "zoom"}, []string{"scale"}},
		{"confirm_action", []string{"action"}, nil},
		{"ask_model", []string{"maxTokens", "question"}, []string{"question"}},
		{"list_roots", nil, nil},
		{"log_message", []string{"level", "logger", "message"}, []string{"message"}},
	}
	tools := listTools(t, newClient(t))
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			schema := tools[tt.tool].InputSchema
			var props []string
			for name := range schema.Properties {
				props = append(props, name)
			}
			slices.Sort(props)
			if !slices.Equal(props, tt.wantProps) {
				t.Errorf("properties: got %v, want %v", props, tt.wantProps)
			}
			required := slices.Sorted(slices.Values(schema.Required))
			if !slices.Equal(required, tt.wantRequired) {
				t.Errorf("required: got %v, want %v", required, tt.wantRequired)
			}
		})
	}
}

func TestStructuredWeatherDeclaresOutputSchema(t *testing.T) {
	tool := listTools(t, newClient(t))["structured_weather"]
	if got, want := tool.OutputSchema.Type, "object"; got != want {
		t.Errorf("output schema type: got %q, want %q", got, want)
	}
	for _, prop := range []string{"city", "temperatureC", "conditions", "humidityPct", "observedAt"} {
		if _, ok := tool.OutputSchema.Properties[prop]; !ok {
			t.Errorf("output schema: got properties %v, want %q among them", tool.OutputSchema.Properties, prop)
		}
	}
	if !strings.Contains(tool.Description, "structured") {
		t.Errorf("description: got %q, want it to mention structured content", tool.Description)
	}
}
