package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestArgumentsForFillsRequiredPropertiesOnly(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"numbers", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`, `{"a":1,"b":1}`},
		{"optional-left-out", `{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}},"required":["q"]}`, `{"q":"test"}`},
		{"default-wins", `{"properties":{"mode":{"type":"string","default":"fast","enum":["slow","fast"]}},"required":["mode"]}`, `{"mode":"fast"}`},
		{"first-enum", `{"properties":{"mode":{"type":"string","enum":["slow","fast"]}},"required":["mode"]}`, `{"mode":"slow"}`},
		{"minimum", `{"properties":{"n":{"type":"integer","minimum":3}},"required":["n"]}`, `{"n":3}`},
		{"type-list", `{"properties":{"b":{"type":["boolean","null"]}},"required":["b"]}`, `{"b":true}`},
		{"containers", `{"properties":{"l":{"type":"array"},"o":{"type":"object"}},"required":["l","o"]}`, `{"l":[],"o":{}}`},
		{"no-schema", `null`, `{}`},
		{"not-json", `{`, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(argumentsFor(json.RawMessage(tt.schema))); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestPlanTakesEveryResourcePromptAndTool(t *testing.T) {
	var d serverDetail
	d.Capabilities.Resources = []resourceInfo{{URI: "file:///a b.txt"}}
	d.Capabilities.Prompts = []promptInfo{{Name: "p"}}
	d.Capabilities.Prompts[0].Arguments = append(d.Capabilities.Prompts[0].Arguments, struct {
		Name     string `json:"name"`
		Required bool   `json:"required"`
	}{"topic", true})
	d.Capabilities.Tools = []toolInfo{{Name: "add_numbers", InputSchema: json.RawMessage(`{}`)}, {Name: "other", InputSchema: json.RawMessage(`{}`)}}

	steps := plan("tools_call", d)
	var names []string
	for _, s := range steps {
		names = append(names, s.String())
	}
	if got, want := strings.Join(names, ", "), "read file:///a b.txt, prompt p, call add_numbers, call other"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got := steps[1].promptArgs["topic"]; got != "test" {
		t.Errorf("prompt argument: got %q, want test", got)
	}
	if got := string(steps[2].args); got != `{"a":5,"b":3}` || !steps[2].sendAnyway {
		t.Errorf("add_numbers: got %s (send anyway %v), want the fixed arguments sent anyway", got, steps[2].sendAnyway)
	}
	if steps[3].sendAnyway {
		t.Error("generated arguments must go through Switchboard's schema check")
	}
}

func TestPlanEchoesTheFocalSchemaVerbatim(t *testing.T) {
	focal := `{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"x":{"$anchor":"x"}},"additionalProperties":false}`
	var d serverDetail
	d.Capabilities.Tools = []toolInfo{{Name: "json_schema_2020_12_tool", InputSchema: json.RawMessage(focal)}, {Name: "json_schema_echo"}}
	steps := plan("json-schema-2020-12-preservation", d)
	if len(steps) != 1 || steps[0].name != "json_schema_echo" {
		t.Fatalf("got %v, want one call of json_schema_echo", steps)
	}
	if got, want := string(steps[0].args), `{"schema":`+focal+`}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestPlanOnlyListsWhenTheScenarioWatchesTheSchema(t *testing.T) {
	var d serverDetail
	d.Capabilities.Tools = []toolInfo{{Name: "t"}}
	if steps := plan("json-schema-ref-no-deref", d); len(steps) != 0 {
		t.Errorf("got %v, want no steps", steps)
	}
}

func TestSettingsFileCarriesPreRegisteredCredentials(t *testing.T) {
	cfg, err := parseConfig([]string{"http://localhost:1234/mcp"}, func(k string) string {
		return map[string]string{
			"MCP_CONFORMANCE_SCENARIO":       "auth/pre-registration",
			"MCP_CONFORMANCE_CONTEXT":        `{"name":"auth/pre-registration","client_id":"pre-registered-client","client_secret":"pre-registered-secret"}`,
			"SWITCHBOARD_CONFORMANCE_BINARY": "/bin/sb",
		}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.binary != "/bin/sb" || cfg.scenario != "auth/pre-registration" {
		t.Errorf("got %+v", cfg)
	}
	b, err := settingsFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		MCPServers map[string]struct {
			Type, URL string
			OAuth     map[string]string `json:"oauth"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	s := got.MCPServers[serverName]
	if s.Type != "http" || s.URL != "http://localhost:1234/mcp" ||
		s.OAuth["clientId"] != "pre-registered-client" || s.OAuth["clientSecret"] != "pre-registered-secret" {
		t.Errorf("got %s", b)
	}
}

func TestSettingsFileLeavesOAuthOutWithoutCredentials(t *testing.T) {
	b, err := settingsFile(runConfig{serverURL: "http://localhost:1/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "oauth") {
		t.Errorf("got %s, want no oauth key", b)
	}
}

func TestParseConfigNeedsTheServerURL(t *testing.T) {
	if _, err := parseConfig(nil, func(string) string { return "" }); err == nil {
		t.Error("no arguments: want an error")
	}
}

func TestPageTextDropsTags(t *testing.T) {
	if got := pageText([]byte("<html><h1>Signed in</h1>\n<p>to <b>conf</b></p></html>")); got != "Signed in to conf" {
		t.Errorf("got %q", got)
	}
}
