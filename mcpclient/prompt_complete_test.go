package mcpclient_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

func TestGetPromptAndCompleteEverything(t *testing.T) {
	t.Parallel()
	s := connect(t, mcpclient.New(mcpclient.Options{}), everythingStdio(t), nil)

	raw, err := s.GetPrompt(connectCtx(t), "args-prompt", map[string]string{"city": "Porto"})
	if err != nil {
		t.Fatalf("GetPrompt(args-prompt): %v", err)
	}
	var prompt struct {
		Messages []struct {
			Content struct{ Text string }
		}
	}
	if err := json.Unmarshal(raw, &prompt); err != nil || len(prompt.Messages) != 1 || prompt.Messages[0].Content.Text != "What's weather in Porto?" {
		t.Errorf("GetPrompt(args-prompt) = %s (%v), want the weather question for Porto", raw, err)
	}

	_, err = s.GetPrompt(connectCtx(t), "no-such-prompt", nil)
	var se *domain.ServerError
	if !errors.As(err, &se) {
		t.Fatalf("GetPrompt(no-such-prompt) error = %v (%T), want a *domain.ServerError", err, err)
	}

	raw, err = s.Complete(connectCtx(t), domain.CompleteRequest{
		Ref:      domain.CompletionRef{Type: domain.RefPrompt, Name: "completable-prompt"},
		Argument: "name", Context: map[string]string{"department": "Engineering"},
	})
	if err != nil {
		t.Fatalf("Complete after a refused prompt: %v (the refusal must leave the session up)", err)
	}
	var res struct{ Completion struct{ Values []string } }
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Alice", "Bob", "Charlie"}; !reflect.DeepEqual(res.Completion.Values, want) {
		t.Errorf("Complete values = %q, want %q", res.Completion.Values, want)
	}
}
