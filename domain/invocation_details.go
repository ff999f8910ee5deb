package domain

import "time"

// Task statuses a server reports for a call that runs as a task (the MCP
// tasks extension). Working and input_required are not final.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// TaskState is what the server last said about a call that runs as a task:
// the card shows it live while the call polls.
type TaskState struct {
	ID            string
	Status        string // one of the Task* constants, or what the server sent
	StatusMessage string
	// PollInterval is the server's suggested wait between polls; zero when
	// it suggested none.
	PollInterval time.Duration
	UpdatedAt    time.Time
}

// Final reports whether the task can change no more.
func (t TaskState) Final() bool {
	return t.Status == TaskCompleted || t.Status == TaskFailed || t.Status == TaskCancelled
}
