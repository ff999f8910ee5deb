package domain_test

import (
	"errors"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
)

func TestCompleteRequestValidate(t *testing.T) {
	prompt := domain.CompletionRef{Type: domain.RefPrompt, Name: "greet"}
	for _, tc := range []struct {
		name  string
		req   domain.CompleteRequest
		valid bool
	}{
		{"prompt-ref-with-argument-is-valid", domain.CompleteRequest{Ref: prompt, Argument: "who"}, true},
		{"resource-ref-with-argument-is-valid", domain.CompleteRequest{Ref: domain.CompletionRef{Type: domain.RefResource, URI: "demo://x/{id}"}, Argument: "id"}, true},
		{"prompt-ref-without-name", domain.CompleteRequest{Ref: domain.CompletionRef{Type: domain.RefPrompt}, Argument: "who"}, false},
		{"resource-ref-without-uri", domain.CompleteRequest{Ref: domain.CompletionRef{Type: domain.RefResource, Name: "x"}, Argument: "id"}, false},
		{"unknown-ref-type", domain.CompleteRequest{Ref: domain.CompletionRef{Type: "ref/tool", Name: "x"}, Argument: "a"}, false},
		{"no-ref-type", domain.CompleteRequest{Ref: domain.CompletionRef{Name: "greet"}, Argument: "a"}, false},
		{"no-argument-name", domain.CompleteRequest{Ref: prompt, Value: "A"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.req.Validate()
			if tc.valid && err != nil {
				t.Errorf("got %v, want valid", err)
			}
			if !tc.valid && !errors.Is(err, domain.ErrInvalidRequest) {
				t.Errorf("got %v, want an ErrInvalidRequest", err)
			}
		})
	}
}

func TestPromptNotFoundNamesPromptAndServer(t *testing.T) {
	err := error(&domain.PromptNotFoundError{Server: "everything", Prompt: "x"})
	if want := `prompt "x" not found on server "everything"`; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if !errors.Is(err, domain.ErrPromptNotFound) || !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("errors.Is(%v, ErrPromptNotFound and ErrNotFound) = false, want true", err)
	}
}
