package views

import "github.com/switchboard-mcp/switchboard/domain"

// errorCodeMessages names, for each error code Switchboard itself sets on
// an invocation, the message that explains it in the reader's language.
// The invocation's Error stays in English for the API and the logs.
var errorCodeMessages = map[string]string{
	domain.ErrorCodeInterrupted:     "InvocationErrorInterrupted",
	domain.ErrorCodeApprovalExpired: "InvocationErrorApprovalExpired",
	domain.ErrorCodeDenied:          "InvocationErrorDenied",
	domain.ErrorCodeNeedsMoreAccess: "InvocationErrorNeedsMoreAccess",
}

// ErrorCodeMessage returns the localized explanation of an invocation's
// error code, and whether the code has one; a card shows it instead of
// the English Error text.
func ErrorCodeMessage(code string) (Message, bool) {
	id, ok := errorCodeMessages[code]
	if !ok {
		return Message{}, false
	}
	return Message{ID: id}, true
}
