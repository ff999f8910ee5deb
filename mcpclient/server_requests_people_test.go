package mcpclient_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// An elicitation that cannot be tied to one call (two confirm_action
// calls run at once on stdio, which says nothing of which one asked)
// goes to the person through NoCallAsker, and the person's answers,
// defaults filled in, reach the server.
func TestElicitationOfNoCallGoesToThePerson(t *testing.T) {
	t.Parallel()
	people := domain.NewElicitations(domain.ElicitationsOptions{})
	c := mcpclient.New(mcpclient.Options{NoCallAsker: domain.PersonAsker{Elicitations: people}})
	s := connect(t, c, demoStdioNamed(), nil)

	ch, stop := people.Subscribe()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	outs := make([]toolOutcome, 2)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.CallTool(ctx, "confirm_action", json.RawMessage(`{"action":"ship it"}`), nil)
			if err != nil {
				t.Errorf("call %d: %v", i, err)
				return
			}
			outs[i] = outcomeOf(t, res)
		}()
	}
	answered := 0
	for answered < 2 {
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("answered %d questions before the deadline; want 2", answered)
		}
		for _, e := range people.ForServer("demo") {
			if e.Message != "Go ahead and ship it?" || e.Mode != domain.ElicitForm || !strings.Contains(string(e.RequestedSchema), `"confirm"`) {
				t.Errorf("question %+v; want the server's form", e)
			}
			if err := people.Answer(domain.Scope{}, e.ID, domain.ElicitationAnswer{Action: domain.ElicitAccept,
				Content: json.RawMessage(`{"confirm":true}`)}); err == nil {
				answered++
			}
		}
	}
	wg.Wait()
	for i, out := range outs {
		if out.isError || !strings.Contains(out.text, `"action":"accept"`) || !strings.Contains(out.text, `"confirm":true`) {
			t.Errorf("call %d: %+v; want the person's accept", i, out)
		}
	}
}
