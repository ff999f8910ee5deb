package mcpclient_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// Results, read contents and tools reach Switchboard as the server sent
// them: mcp-go's types would add "description": "" to a resource_link,
// drop unknown fields, icons and execution, and fail a call over a
// content type they do not know.
func TestRawResultsAreKeptAsSent(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]func(*testing.T) domain.ServerConfig{
		"stdio": func(*testing.T) domain.ServerConfig { return cannedStdio() },
		"http":  startCannedHTTP,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := connect(t, mcpclient.New(mcpclient.Options{}), cfg(t), nil)
			res, err := s.CallTool(connectCtx(t), "plain", nil, nil)
			if err != nil {
				t.Fatalf("CallTool: %v", err)
			}
			if string(res) != cannedCallResult {
				t.Errorf("CallTool result changed:\n got %s\nwant %s", res, cannedCallResult)
			}
			read, err := s.ReadResource(connectCtx(t), "canned://a")
			if err != nil {
				t.Fatalf("ReadResource: %v", err)
			}
			if string(read) != cannedReadResult {
				t.Errorf("ReadResource result changed:\n got %s\nwant %s", read, cannedReadResult)
			}

			caps := loadAll(t, s)
			if len(caps.Tools) != len(cannedTools) {
				t.Fatalf("listed %d tools, want %d", len(caps.Tools), len(cannedTools))
			}
			for i, tl := range caps.Tools {
				if string(tl.Raw) != cannedTools[i] {
					t.Errorf("tool %s Raw:\n got %s\nwant %s", tl.Name, tl.Raw, cannedTools[i])
				}
			}
			rich := caps.Tools[0]
			if want := `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"q":{"type":"string","default":"x"}},"additionalProperties":false}`; string(rich.InputSchema) != want {
				t.Errorf("input schema %s, want %s", rich.InputSchema, want)
			}
			if want := `{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`; string(rich.OutputSchema) != want {
				t.Errorf("output schema %s, want %s", rich.OutputSchema, want)
			}
			if rich.TaskSupport != domain.TaskSupportOptional || caps.Tools[1].TaskSupport != "" {
				t.Errorf("task support %q and %q, want optional and empty", rich.TaskSupport, caps.Tools[1].TaskSupport)
			}
			if caps.Tools[1].OutputSchema != nil {
				t.Errorf("plain's output schema %s, want none", caps.Tools[1].OutputSchema)
			}
			if len(caps.Resources) != 1 || string(caps.Resources[0].Raw) != cannedResource {
				t.Errorf("resources %+v, want one with Raw %s", caps.Resources, cannedResource)
			}
			if len(caps.ResourceTemplates) != 1 || string(caps.ResourceTemplates[0].Raw) != cannedTemplate {
				t.Errorf("templates %+v, want one with Raw %s", caps.ResourceTemplates, cannedTemplate)
			}
			if len(caps.Prompts) != 1 || string(caps.Prompts[0].Raw) != cannedPrompt {
				t.Errorf("prompts %+v, want one with Raw %s", caps.Prompts, cannedPrompt)
			}
		})
	}
}

// server-everything's tools keep their execution, $schema and
// annotations as sent, over stdio and streamable HTTP alike.
func TestEverythingToolsKeepWhatTheServerSent(t *testing.T) {
	t.Parallel()
	for name, cfg := range map[string]func(*testing.T) domain.ServerConfig{
		"stdio": everythingStdio,
		"http":  everythingHTTP,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := connect(t, mcpclient.New(mcpclient.Options{}), cfg(t), nil)
			caps := loadAll(t, s)
			var research *domain.Tool
			for i, tl := range caps.Tools {
				var obj map[string]json.RawMessage
				if err := json.Unmarshal(tl.Raw, &obj); err != nil {
					t.Fatalf("tool %s Raw %q: %v", tl.Name, tl.Raw, err)
				}
				if obj["execution"] == nil || !bytes.Contains(tl.InputSchema, []byte(`"$schema"`)) {
					t.Errorf("tool %s lost execution or $schema: %s", tl.Name, tl.Raw)
				}
				if !bytes.Equal(obj["inputSchema"], tl.InputSchema) {
					t.Errorf("tool %s input schema %s, want %s", tl.Name, tl.InputSchema, obj["inputSchema"])
				}
				if bytes.Contains(obj["annotations"], []byte(`"title"`)) {
					t.Errorf("tool %s annotations gained a title: %s", tl.Name, obj["annotations"])
				}
				if tl.Name == "simulate-research-query" {
					research = &caps.Tools[i]
				}
			}
			if research == nil || research.TaskSupport != domain.TaskSupportRequired {
				t.Fatalf("simulate-research-query = %+v, want it listed with task support required", research)
			}
			res, err := s.CallTool(connectCtx(t), "get-resource-links", json.RawMessage(`{"count":1}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(res), `"description":""`) || strings.Contains(string(res), `"title":""`) {
				t.Errorf("result gained empty fields: %s", res)
			}
		})
	}
}

// everythingHTTP starts server-everything over streamable HTTP.
func everythingHTTP(t *testing.T) domain.ServerConfig {
	_, url := startEverythingHTTP(t)
	return domain.ServerConfig{Name: "everything-http", Transport: domain.TransportHTTP, URL: url}
}
