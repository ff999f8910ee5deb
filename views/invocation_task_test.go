package views_test

import (
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// A call that runs as a task shows the task's status in the reader's
// language and the server's status message, escaped, in a live region.
func TestCardShowsTheTaskStatus(t *testing.T) {
	inv := invAt(domain.InvocationRunning, "")
	inv.Task = &domain.TaskState{ID: "t1", Status: domain.TaskWorking, StatusMessage: `Gathering <b>sources</b>...`}
	card := renderCard(t, inv, views.CardInput{})
	task := card.Find(`[data-testid="invocation-task"]`)
	if task.Length() != 1 {
		t.Fatalf("task parts: got %d, want 1", task.Length())
	}
	if role, live := task.AttrOr("role", ""), task.AttrOr("aria-live", ""); role != "status" || live != "polite" {
		t.Errorf("role %q aria-live %q, want status and polite", role, live)
	}
	if got := task.AttrOr("data-task-status", ""); got != "working" {
		t.Errorf("data-task-status %q, want working", got)
	}
	if got := task.Find(`[data-testid="invocation-task-status"]`).Text(); got != "Task: working" {
		t.Errorf("status %q, want Task: working", got)
	}
	msg := task.Find(`[data-testid="invocation-task-message"]`)
	if msg.Text() != `Gathering <b>sources</b>...` || msg.Find("b").Length() != 0 {
		t.Errorf("message %q with %d <b> elements, want the server's text, inert", msg.Text(), msg.Find("b").Length())
	}

	if card := renderCard(t, invAt(domain.InvocationRunning, ""), views.CardInput{}); card.Find(`[data-testid="invocation-task"]`).Length() != 0 {
		t.Error("a plain call shows a task")
	}
}

func TestTaskPropsPerStatus(t *testing.T) {
	for _, tc := range []struct{ status, label, shown string }{
		{domain.TaskWorking, "InvocationTaskWorking", "working"},
		{domain.TaskInputRequired, "InvocationTaskInputRequired", "input_required"},
		{domain.TaskCompleted, "InvocationTaskCompleted", "completed"},
		{domain.TaskFailed, "InvocationTaskFailed", "failed"},
		{domain.TaskCancelled, "InvocationTaskCancelled", "cancelled"},
		{"paused", "InvocationTaskOther", "other"},
	} {
		p := views.NewInvocationTaskProps(&domain.TaskState{Status: tc.status})
		if p.Label.ID != tc.label || p.Status != tc.shown {
			t.Errorf("%s: label %s status %s, want %s and %s", tc.status, p.Label.ID, p.Status, tc.label, tc.shown)
		}
	}
	long := views.NewInvocationTaskProps(&domain.TaskState{Status: domain.TaskWorking, StatusMessage: strings.Repeat("é", views.TaskMessageBytes)})
	if len(long.Message) > views.TaskMessageBytes+len("…") || !strings.HasSuffix(long.Message, "…") {
		t.Errorf("a long message is %d bytes, want it cut to %d and marked", len(long.Message), views.TaskMessageBytes)
	}
	if views.NewInvocationTaskProps(nil) != nil {
		t.Error("no task, yet props")
	}
}

// Every task status reads in each language.
func TestTaskStatusIsTranslated(t *testing.T) {
	inv := invAt(domain.InvocationRunning, "")
	inv.Task = &domain.TaskState{Status: "paused"}
	for lang, want := range map[string]string{"en": "Task: paused", "pt-BR": "Tarefa: paused", "zh-Hans": "任务：paused"} {
		doc := renderDrawerPart(t, lang, views.InvocationTask(views.NewInvocationTaskProps(inv.Task)))
		if got := doc.Find(`[data-testid="invocation-task-status"]`).Text(); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
