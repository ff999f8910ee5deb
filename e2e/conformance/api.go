package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// api is Switchboard's JSON API as any client sees it: the URLs are
// spelled here from the public contract, on purpose not imported from the
// handlers, so that a change of the contract breaks this program.
type api struct {
	base, token string
	hc          *http.Client
}

func newAPI(base, token string) *api {
	return &api{base: base, token: token, hc: &http.Client{Timeout: 30 * time.Second}}
}

// apiError is an answer outside 2xx, with the body's first bytes.
type apiError struct {
	Method, Path string
	Status       int
	Body         string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, e.Body)
}

// do sends body (JSON, when not nil) and decodes a 2xx answer into out
// (when not nil).
func (a *api) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return &apiError{Method: method, Path: path, Status: resp.StatusCode, Body: strings.TrimSpace(string(raw[:min(len(raw), 600)]))}
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return nil
}

// serverDetail is the part of GET /api/v1/servers/{name} this program
// reads.
type serverDetail struct {
	State         string      `json:"state"`
	Phase         string      `json:"phase"`
	Error         *string     `json:"error"`
	ErrorCategory *string     `json:"errorCategory"`
	LastErrorAt   *int64      `json:"lastErrorAt"`
	Auth          *authStatus `json:"auth"`
	Capabilities  struct {
		Tools     []toolInfo     `json:"tools"`
		Resources []resourceInfo `json:"resources"`
		Prompts   []promptInfo   `json:"prompts"`
	} `json:"capabilities"`
}

// authStatus is the status's auth object; null for servers without OAuth.
type authStatus struct {
	State      string   `json:"state"`
	Scopes     []string `json:"scopes"`
	MoreAccess bool     `json:"moreAccess"`
	Detail     string   `json:"detail"`
}

type toolInfo struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

type resourceInfo struct {
	URI string `json:"uri"`
}

type promptInfo struct {
	Name      string `json:"name"`
	Arguments []struct {
		Name     string `json:"name"`
		Required bool   `json:"required"`
	} `json:"arguments"`
}

func serverPath(suffix string) string {
	return "/api/v1/servers/" + url.PathEscape(serverName) + suffix
}

func (a *api) server(ctx context.Context) (serverDetail, error) {
	var s serverDetail
	err := a.do(ctx, http.MethodGet, serverPath(""), nil, &s)
	return s, err
}

// startSignIn asks Switchboard to begin a sign-in and answers the address
// to send the browser to.
func (a *api) startSignIn(ctx context.Context) (string, error) {
	var r struct {
		AuthorizationURL string `json:"authorizationUrl"`
	}
	if err := a.do(ctx, http.MethodPost, serverPath("/auth/start"), struct{}{}, &r); err != nil {
		return "", err
	}
	if r.AuthorizationURL == "" {
		return "", fmt.Errorf("POST %s: no authorizationUrl", serverPath("/auth/start"))
	}
	return r.AuthorizationURL, nil
}

// invocation is the part of an invocation this program reads.
type invocation struct {
	ID           string          `json:"id"`
	Status       string          `json:"status"`
	Error        *string         `json:"error"`
	ErrorCode    *string         `json:"errorCode"`
	NeededScopes []string        `json:"neededScopes"`
	Result       json.RawMessage `json:"result"`
}

// finished reports whether the invocation has ended.
func (i invocation) finished() bool {
	switch i.Status {
	case "pending", "running", "awaiting_approval":
		return false
	}
	return true
}

// callTool starts a call; sendAnyway skips Switchboard's check of the
// arguments against the tool's schema (?validate=false).
func (a *api) callTool(ctx context.Context, tool string, args json.RawMessage, sendAnyway bool) (invocation, error) {
	var inv invocation
	path := serverPath("/tools/" + url.PathEscape(tool) + "/call")
	if sendAnyway {
		path += "?validate=false"
	}
	err := a.do(ctx, http.MethodPost, path, args, &inv)
	return inv, err
}

func (a *api) invocation(ctx context.Context, id string) (invocation, error) {
	var inv invocation
	err := a.do(ctx, http.MethodGet, "/api/v1/invocations/"+url.PathEscape(id), nil, &inv)
	return inv, err
}

func (a *api) retry(ctx context.Context, id string) (invocation, error) {
	var inv invocation
	err := a.do(ctx, http.MethodPost, "/api/v1/invocations/"+url.PathEscape(id)+"/retry", struct{}{}, &inv)
	return inv, err
}

func (a *api) approve(ctx context.Context, id string) error {
	return a.do(ctx, http.MethodPost, "/api/v1/invocations/"+url.PathEscape(id)+"/approve", struct{}{}, nil)
}

// elicitation is one pending question a server put to the person.
type elicitation struct {
	ID              string          `json:"id"`
	ServerName      string          `json:"serverName"`
	InvocationID    string          `json:"invocationId"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
}

func (a *api) elicitations(ctx context.Context) ([]elicitation, error) {
	var r struct {
		Elicitations []elicitation `json:"elicitations"`
	}
	err := a.do(ctx, http.MethodGet, "/api/v1/elicitations", nil, &r)
	return r.Elicitations, err
}

// acceptElicitation accepts with no fields of its own: the schema's
// defaults fill every field, as the prefilled form would send them.
func (a *api) acceptElicitation(ctx context.Context, id string) error {
	body := map[string]any{"action": "accept", "content": map[string]any{}}
	return a.do(ctx, http.MethodPost, "/api/v1/elicitations/"+url.PathEscape(id), body, nil)
}

func (a *api) readResource(ctx context.Context, uri string) error {
	return a.do(ctx, http.MethodGet, serverPath("/resources/read?"+url.Values{"uri": {uri}}.Encode()), nil, nil)
}

func (a *api) getPrompt(ctx context.Context, name string, args map[string]string) error {
	return a.do(ctx, http.MethodPost, serverPath("/prompts/"+url.PathEscape(name)+"/get"), map[string]any{"arguments": args}, nil)
}
