package demoserver_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// readResource reads uri with a bounded context.
func readResource(t *testing.T, c *client.Client, uri string) (*mcp.ReadResourceResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	return c.ReadResource(ctx, req)
}

func TestResourcesListAndRead(t *testing.T) {
	tests := []struct {
		uri      string
		mimeType string
		blob     bool
	}{
		{"demo://readme", "text/markdown", false},
		{"demo://config.json", "application/json", false},
		{"demo://logo.png", "image/png", true},
		{"demo://tone.wav", "audio/wav", true},
	}
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	list, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatalf("ListResources: %v", err)
	}
	listed := map[string]mcp.Resource{}
	for _, r := range list.Resources {
		listed[r.URI] = r
	}
	if got, want := len(listed), len(tests); got != want {
		t.Errorf("resource count: got %d, want %d", got, want)
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			r, ok := listed[tt.uri]
			if !ok {
				t.Fatalf("resource %s not listed", tt.uri)
			}
			if r.Name == "" || r.Description == "" {
				t.Errorf("listing: got name %q description %q, want both set", r.Name, r.Description)
			}
			if r.MIMEType != tt.mimeType {
				t.Errorf("mimeType: got %q, want %q", r.MIMEType, tt.mimeType)
			}
			if r.Size == nil {
				t.Fatalf("size: got unset, want the byte length")
			}
			res, err := readResource(t, c, tt.uri)
			if err != nil {
				t.Fatalf("ReadResource: %v", err)
			}
			if len(res.Contents) != 1 {
				t.Fatalf("contents: got %d, want 1", len(res.Contents))
			}
			var n int
			switch got := res.Contents[0].(type) {
			case mcp.TextResourceContents:
				if tt.blob {
					t.Fatalf("contents: got text, want blob")
				}
				n = len(got.Text)
			case mcp.BlobResourceContents:
				if !tt.blob {
					t.Fatalf("contents: got blob, want text")
				}
				raw, err := base64.StdEncoding.DecodeString(got.Blob)
				if err != nil {
					t.Fatalf("blob base64: %v", err)
				}
				n = len(raw)
			default:
				t.Fatalf("contents: got %T, want text or blob", got)
			}
			if int64(n) != *r.Size {
				t.Errorf("size: listed %d, want the %d bytes read", *r.Size, n)
			}
		})
	}
}

func TestNotesTemplate(t *testing.T) {
	c := newClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	list, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatalf("ListResourceTemplates: %v", err)
	}
	if len(list.ResourceTemplates) != 1 {
		t.Fatalf("templates: got %d, want 1", len(list.ResourceTemplates))
	}
	tmpl := list.ResourceTemplates[0]
	if got, want := tmpl.URITemplate.Raw(), "demo://notes/{id}"; got != want {
		t.Errorf("uriTemplate: got %q, want %q", got, want)
	}
	if tmpl.Name == "" || tmpl.Description == "" || tmpl.MIMEType != "text/markdown" {
		t.Errorf("template: got name %q description %q mimeType %q, want all set", tmpl.Name, tmpl.Description, tmpl.MIMEType)
	}

	tests := []struct {
		uri      string
		wantText string
		wantErr  bool
	}{
		{"demo://notes/welcome", "# Welcome", false},
		{"demo://notes/todo", "# To do", false},
		{"demo://notes/missing", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			res, err := readResource(t, c, tt.uri)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ReadResource: got %+v, want an error", res)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadResource: %v", err)
			}
			text, ok := res.Contents[0].(mcp.TextResourceContents)
			if !ok || !strings.HasPrefix(text.Text, tt.wantText) || text.URI != tt.uri {
				t.Errorf("contents: got %+v, want text starting %q at %s", res.Contents[0], tt.wantText, tt.uri)
			}
		})
	}
}
