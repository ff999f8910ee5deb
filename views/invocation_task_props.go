package views

import "github.com/switchboard-mcp/switchboard/domain"

// TaskMessageBytes caps the server's status message a card shows; a
// server may put anything there, and the card is redrawn on every poll.
const TaskMessageBytes = 500

// InvocationTaskProps is the task a call runs as: its status in the
// reader's language and the server's own status message.
type InvocationTaskProps struct {
	Status  string // as the server sent it, for styling and tests
	Label   Message
	Message string // the server's words, untrusted: templ escapes them
}

var taskLabels = map[string]string{
	domain.TaskWorking:       "InvocationTaskWorking",
	domain.TaskInputRequired: "InvocationTaskInputRequired",
	domain.TaskCompleted:     "InvocationTaskCompleted",
	domain.TaskFailed:        "InvocationTaskFailed",
	domain.TaskCancelled:     "InvocationTaskCancelled",
}

// NewInvocationTaskProps describes t, or is nil for a call that does not
// run as a task. A status the tasks extension does not define is shown
// as the server spelled it.
func NewInvocationTaskProps(t *domain.TaskState) *InvocationTaskProps {
	if t == nil {
		return nil
	}
	p := &InvocationTaskProps{Status: t.Status, Label: Message{ID: taskLabels[t.Status]}, Message: t.StatusMessage}
	if p.Label.ID == "" {
		p.Status = "other"
		p.Label = Message{ID: "InvocationTaskOther", Data: map[string]any{"Status": cutUTF8(t.Status, 64)}}
	}
	if len(p.Message) > TaskMessageBytes {
		p.Message = cutUTF8(p.Message, TaskMessageBytes) + jsonEllipsis
	}
	return p
}
