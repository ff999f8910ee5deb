package main

import (
	"encoding/json"
	"fmt"
	"sort"
)

// stepKind is what one step of a scenario does through the API.
type stepKind int

const (
	stepTool stepKind = iota
	stepResource
	stepPrompt
)

// step is one thing a person does with the connected server: call a tool,
// read a resource or get a prompt.
type step struct {
	kind       stepKind
	name       string // tool, resource URI or prompt
	args       json.RawMessage
	promptArgs map[string]string
	// sendAnyway sends arguments the scenario chose even where they break
	// the tool's schema (a null for an optional boolean, to see that it is
	// left out of the headers), as a person would press Send anyway.
	sendAnyway bool
}

func (s step) String() string {
	switch s.kind {
	case stepResource:
		return "read " + s.name
	case stepPrompt:
		return "prompt " + s.name
	}
	return "call " + s.name
}

// fixedArguments are the arguments a person would type for tools whose
// point is what the values are (the generated ones are too plain).
var fixedArguments = map[string]map[string]string{
	"tools_call": {"add_numbers": `{"a":5,"b":3}`},
	"http-custom-headers": {
		"test_custom_headers": `{"region":"us-west1","priority":5,"verbose":false,"debug":true,"empty_val":"",` +
			`"method_val":"POST","float_val":3.14,"non_ascii_val":"日本語","whitespace_val":"  padded  ",` +
			`"leading_space_val":" lead","trailing_space_val":"trail ","internal_space_val":"a b c",` +
			`"control_char_val":"a\u0001b","crlf_val":"a\r\nb","tab_val":"\tx","query":"plain"}`,
		"test_custom_headers_null": `{"region":"eu-central1","priority":1,"verbose":null,"query":"plain"}`,
	},
}

// plan is what to do once the scenario's server is connected. By default a
// person reads every resource, gets every prompt and calls every tool
// Switchboard lists (arguments from each tool's schema): the scenarios
// judge what reached the server, including that a tool Switchboard
// should have refused to list was never called. Two scenarios differ:
// one only lists (it checks that a schema's remote $ref is never
// fetched), and one asks for a tool's schema to be echoed back verbatim
// through another tool.
func plan(scenario string, d serverDetail) []step {
	caps := d.Capabilities
	switch scenario {
	case "json-schema-ref-no-deref":
		return nil
	case "json-schema-2020-12-preservation":
		return echoSchemaPlan(caps.Tools)
	}
	var steps []step
	for _, r := range caps.Resources {
		steps = append(steps, step{kind: stepResource, name: r.URI})
	}
	for _, p := range caps.Prompts {
		args := map[string]string{}
		for _, a := range p.Arguments {
			if a.Required {
				args[a.Name] = "test"
			}
		}
		steps = append(steps, step{kind: stepPrompt, name: p.Name, promptArgs: args})
	}
	for _, t := range caps.Tools {
		st := step{kind: stepTool, name: t.Name, args: json.RawMessage(fixedArguments[scenario][t.Name])}
		st.sendAnyway = len(st.args) > 0
		if !st.sendAnyway {
			st.args = argumentsFor(t.InputSchema)
		}
		steps = append(steps, st)
	}
	return steps
}

// echoSchemaPlan passes the other tool's input schema, exactly as
// Switchboard lists it, to json_schema_echo.
func echoSchemaPlan(tools []toolInfo) []step {
	const echo = "json_schema_echo"
	var focal json.RawMessage
	for _, t := range tools {
		if t.Name != echo {
			focal = t.InputSchema
		}
	}
	if focal == nil {
		return []step{{kind: stepTool, name: echo, args: json.RawMessage(`{}`)}}
	}
	args, _ := json.Marshal(map[string]json.RawMessage{"schema": focal})
	return []step{{kind: stepTool, name: echo, args: args}}
}

// argumentsFor builds arguments for a tool from its input schema: a value
// for every required property (its default, its first enum value, or a
// plain value of its type), nothing for the others.
func argumentsFor(schema json.RawMessage) json.RawMessage {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return json.RawMessage(`{}`)
	}
	args := map[string]any{}
	req := append([]string(nil), s.Required...)
	sort.Strings(req)
	for _, name := range req {
		args[name] = valueFor(s.Properties[name])
	}
	b, err := json.Marshal(args)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// valueFor is a value that a property's schema accepts, for the common
// shapes of tool schemas.
func valueFor(prop json.RawMessage) any {
	var p struct {
		Type    any               `json:"type"`
		Default json.RawMessage   `json:"default"`
		Enum    []json.RawMessage `json:"enum"`
		Const   json.RawMessage   `json:"const"`
		Minimum *float64          `json:"minimum"`
	}
	if err := json.Unmarshal(prop, &p); err != nil {
		return "test"
	}
	switch {
	case len(p.Default) > 0:
		return p.Default
	case len(p.Const) > 0:
		return p.Const
	case len(p.Enum) > 0:
		return p.Enum[0]
	}
	typ := fmt.Sprint(p.Type)
	if list, ok := p.Type.([]any); ok && len(list) > 0 {
		typ = fmt.Sprint(list[0])
	}
	switch typ {
	case "integer":
		if p.Minimum != nil && *p.Minimum > 1 {
			return int64(*p.Minimum)
		}
		return 1
	case "number":
		if p.Minimum != nil && *p.Minimum > 1 {
			return *p.Minimum
		}
		return 1
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	case "null":
		return nil
	}
	return "test"
}
