package handlers

import (
	"net/http"

	"github.com/switchboard-mcp/switchboard/domain"
)

// sentinelResponse is how one of the domain's sentinel errors answers over
// HTTP. An empty message shows the error's own text, context included:
// domain errors arrive redacted, so it may be shown.
type sentinelResponse struct {
	err     error
	status  int
	code    string
	message string
}

// sentinelResponses is the error table: every sentinel domain/errors.go
// declares, with its status, code and message (a test checks none is
// missing). classify takes the first row the error matches, so a sentinel
// that wraps another (every "not found" wraps domain.ErrNotFound) comes
// before it.
var sentinelResponses = []sentinelResponse{
	// A request that waited for the server in vain, or was built wrongly.
	{domain.ErrNoAnswer, http.StatusGatewayTimeout, "timeout", ""},
	{domain.ErrInvalidRequest, http.StatusBadRequest, "bad_request", ""},
	{domain.ErrBadArguments, http.StatusBadRequest, "bad_arguments", ""},
	{domain.ErrNotConnected, http.StatusConflict, "not_connected", ""},

	// Lookups that found nothing.
	{domain.ErrRemoved, http.StatusNotFound, "not_found", ""},
	{domain.ErrInvocationNotFound, http.StatusNotFound, "not_found", ""},
	{domain.ErrToolNotFound, http.StatusNotFound, "not_found", ""},
	{domain.ErrPromptNotFound, http.StatusNotFound, "not_found", ""},
	{domain.ErrElicitationNotFound, http.StatusNotFound, "not_found", ""},
	{domain.ErrNotFound, http.StatusNotFound, "not_found", ""},
	{domain.ErrGatewaySessionNotFound, http.StatusNotFound, "not_found", ""},
	{domain.ErrClientTokenNotFound, http.StatusNotFound, "not_found", domain.ErrClientTokenNotFound.Error()},

	// Calls and decisions refused by what the person set.
	{domain.ErrDuplicateCall, http.StatusConflict, "duplicate_call",
		"an invocation with this messageId and toolCallId already exists; a replayed call is not run again"},
	{domain.ErrDeniedByPolicy, http.StatusForbidden, "denied_by_policy", ""},
	{domain.ErrNotAwaitingApproval, http.StatusConflict, "not_awaiting_approval", ""},
	{domain.ErrInvalidPolicy, http.StatusBadRequest, "bad_request", ""},
	{domain.ErrNothingToApprove, http.StatusConflict, "nothing_to_approve", ""},
	{domain.ErrFingerprintRequired, http.StatusBadRequest, "fingerprint_required", ""},
	{domain.ErrConfigChanged, http.StatusConflict, "config_changed", ""},
	{domain.ErrBlocked, http.StatusConflict, "blocked", ""},
	{domain.ErrServerDisabled, http.StatusConflict, "server_disabled", ""},
	{domain.ErrInvalidSettings, http.StatusUnprocessableEntity, "invalid_settings", ""},
	{domain.ErrClosed, http.StatusServiceUnavailable, "shutting_down", "Switchboard is shutting down"},

	// What a server's connection cannot do, or did on its own.
	{domain.ErrProcessExited, http.StatusBadGateway, "connection_failed", "the server's process exited"},
	{domain.ErrNoTasks, http.StatusConflict, "tasks_unsupported", ""},
	{domain.ErrTaskCancelled, http.StatusBadGateway, "task_cancelled", ""},
	{domain.ErrTaskFailed, http.StatusBadGateway, "task_failed", ""},
	{domain.ErrCannotSubscribe, http.StatusConflict, "cannot_subscribe", ""},
	{domain.ErrNotAsked, http.StatusConflict, "not_asked", ""},

	// A server's questions to the person.
	{domain.ErrBadElicitationAnswer, http.StatusBadRequest, "bad_request", ""},
	{domain.ErrTooManyElicitations, http.StatusTooManyRequests, "too_many_elicitations", ""},

	// Sign-in. The two whose wording tells the person what to do next
	// show the sentinel alone, without the context it was wrapped in.
	{domain.ErrNoSignIn, http.StatusConflict, "no_sign_in", ""},
	{domain.ErrSignInOtherServer, http.StatusConflict, "sign_in_other_server", domain.ErrSignInOtherServer.Error()},
	{domain.ErrSignInUnknown, http.StatusBadRequest, "sign_in_unknown", domain.ErrSignInUnknown.Error()},
	{domain.ErrNeedsClientID, http.StatusConflict, "needs_client_id", ""},

	// Client tokens: the sentinel alone, since it names the rule broken.
	{domain.ErrClientTokenName, http.StatusUnprocessableEntity, "invalid_name", domain.ErrClientTokenName.Error()},
	{domain.ErrClientTokenExists, http.StatusConflict, "name_taken", domain.ErrClientTokenExists.Error()},

	// Connecting AI clients through their config files.
	{domain.ErrNoClientConfig, http.StatusNotFound, "no_client_config", ""},
	{domain.ErrNoSettingsFile, http.StatusConflict, "no_settings_file", ""},
	{domain.ErrNothingToUndo, http.StatusConflict, "nothing_to_undo", ""},
}
