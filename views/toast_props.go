package views

// ToastProps is a failed action's message, shown in the page's alert
// region.
type ToastProps struct {
	Code    string // stable, for tests and scripts
	Message Message
}

// NewToastProps names a failure; data holds untrusted parts such as a
// server name, which the template escapes.
func NewToastProps(code, id string, data map[string]any) ToastProps {
	return ToastProps{Code: code, Message: Message{ID: id, Data: data}}
}
