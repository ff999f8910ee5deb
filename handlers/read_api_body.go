package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// promptBody is the body of a prompts/get request. Argument values are
// kept raw so that one that is not a string can be named.
type promptBody struct {
	Arguments map[string]json.RawMessage `json:"arguments"`
}

// completeBody is the body of a completion/complete request, shaped as
// MCP's params are.
type completeBody struct {
	Ref *struct {
		Type string `json:"type"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"ref"`
	Argument *struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context *struct {
		Arguments map[string]json.RawMessage `json:"arguments"`
	} `json:"context"`
}

// promptArguments reads the optional {"arguments": {...}} body; an empty
// body means no arguments.
func promptArguments(c echo.Context) (map[string]string, error) {
	var b promptBody
	empty, err := decodeBody(c, &b)
	if err != nil || empty {
		return nil, err
	}
	return stringValues("arguments", b.Arguments)
}

// completeRequest reads the body {"ref": {...}, "argument": {"name",
// "value"}, "context": {"arguments": {...}}}; ref and argument are
// required, and the domain checks what they hold.
func completeRequest(c echo.Context) (domain.CompleteRequest, error) {
	var b completeBody
	if _, err := decodeBody(c, &b); err != nil {
		return domain.CompleteRequest{}, err
	}
	if b.Ref == nil {
		return domain.CompleteRequest{}, &apiError{http.StatusBadRequest, "bad_request", `the body needs "ref": {"type": "ref/prompt", "name": …} or {"type": "ref/resource", "uri": …}`}
	}
	if b.Argument == nil {
		return domain.CompleteRequest{}, &apiError{http.StatusBadRequest, "bad_request", `the body needs "argument": {"name": …, "value": …}`}
	}
	req := domain.CompleteRequest{
		Ref:      domain.CompletionRef{Type: b.Ref.Type, Name: b.Ref.Name, URI: b.Ref.URI},
		Argument: b.Argument.Name,
		Value:    b.Argument.Value,
	}
	if b.Context != nil {
		ctx, err := stringValues("context.arguments", b.Context.Arguments)
		if err != nil {
			return domain.CompleteRequest{}, err
		}
		req.Context = ctx
	}
	return req, nil
}

// decodeBody reads a JSON object body into v under the same bounds as a
// tool call's arguments, and reports whether the body was empty (v is
// then left as it was). Fields v does not know are refused, so that a
// misspelt "argument" is not silently ignored.
func decodeBody(c echo.Context, v any) (bool, error) {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxArgumentsBytes+1))
	if err != nil {
		return false, err
	}
	if len(body) > maxArgumentsBytes {
		return false, &apiError{http.StatusRequestEntityTooLarge, "too_large", "the request body is larger than 4 MiB"}
	}
	if err := domain.CheckJSONDepth(body, domain.MaxArgumentsDepth); err != nil {
		return false, err
	}
	if err := notJSON(body, "bad_request"); err != nil {
		return false, err
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return true, nil
	}
	if body[0] != '{' {
		return false, &apiError{http.StatusBadRequest, "bad_request", "the request body must be a JSON object"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return false, bodyFieldError(err)
	}
	return false, nil
}

// bodyFieldError says which field of a valid JSON body is wrong.
func bodyFieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return &apiError{http.StatusBadRequest, "bad_request", fmt.Sprintf("%q must be %s, not %s", te.Field, goKindName(te.Type), jsonKindOf(te.Value))}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return &apiError{http.StatusBadRequest, "bad_request", "unknown field " + name + " in the request body"}
	}
	return &apiError{http.StatusBadRequest, "bad_request", "the request body does not have the expected shape"}
}

// stringValues checks that every value of m is a string, as MCP requires
// of prompt and completion arguments, naming the first one that is not
// (in key order, so the answer is the same every time).
func stringValues(field string, m map[string]json.RawMessage) (map[string]string, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var s string
		raw := bytes.TrimSpace(m[k])
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return nil, &apiError{http.StatusBadRequest, "bad_arguments",
				fmt.Sprintf("%q must be a string, not %s", field+"."+k, jsonKind(raw))}
		}
		out[k] = s
	}
	return out, nil
}

// jsonKind names the kind of a JSON value by its first byte, as an error
// message puts it.
func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// jsonKindOf turns the kind of value a *json.UnmarshalTypeError names
// ("number", "bool", …) into the words jsonKind uses.
func jsonKindOf(v string) string {
	switch v {
	case "object", "array":
		return "an " + v
	case "bool":
		return "a boolean"
	case "number", "string":
		return "a " + v
	}
	return v
}

// goKindName says what a body field of type t must be, in JSON's words.
func goKindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object"
	}
	return "a " + t.Kind().String()
}

// pathName is the path parameter param unescaped, like serverName does
// for the server; what names the thing in the error message.
func pathName(c echo.Context, param, what string) (string, error) {
	name := c.Param(param)
	if c.Request().URL.RawPath == "" {
		return name, nil
	}
	decoded, err := url.PathUnescape(name)
	if err != nil {
		return "", &apiError{http.StatusBadRequest, "bad_request", "the " + what + " name in the path is not validly escaped"}
	}
	return decoded, nil
}

// pathWith fills one parameter of a path pattern with value, escaped.
func pathWith(pattern, param, value string) string {
	return strings.Replace(pattern, ":"+param, url.PathEscape(value), 1)
}
