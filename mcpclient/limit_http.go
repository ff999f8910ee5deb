package mcpclient

import (
	"io"
	"mime"
	"net/http"

	"github.com/switchboard-mcp/switchboard/domain"
)

// limitBody makes resp's body fail once a message in it passes the limit:
// each event of an event stream, or the whole of any other body. The
// failure is recorded for the request, whose error mcp-go may word without
// it. An event stream the session listens on (the legacy SSE stream, which
// carries every response, or the streamable GET stream, which mcp-go would
// reopen forever) cannot be trusted any further, so its overflow ends the
// session.
func (o *observer) limitBody(req *http.Request, resp *http.Response, listening bool) {
	if resp.Body == nil || resp.Body == http.NoBody {
		return
	}
	limit := o.maxMessage
	if resp.StatusCode >= http.StatusBadRequest {
		// mcp-go copies an error body into its error message whole.
		limit = min(limit, maxErrorBody)
	}
	f := framingWhole
	tooLarge := &tooLargeError{limit: limit, what: "a response", outcome: "it was cut off"}
	if mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mediaType == "text/event-stream" {
		f = framingEvent
		tooLarge.what = "an event"
		if listening {
			tooLarge.outcome = "the connection was dropped"
		}
	}
	ex := exchangeFrom(req.Context())
	stream := listening && f == framingEvent
	overflow := func(err error) {
		ex.overflowed(err)
		if stream {
			o.lost(&domain.ConnError{Category: domain.CategoryProtocol, Err: err})
		}
	}
	var body io.Reader = newLimitReader(resp.Body, limit, f, tooLarge, overflow)
	if f == framingEvent && o.tap != nil && resp.StatusCode < http.StatusBadRequest {
		body = newMessageTap(body, framingEvent, o.tap)
	}
	resp.Body = limitedBody{body, resp.Body}
}

// maxErrorBody bounds the body of an HTTP error status, which becomes part
// of an error message shown on the dashboard rather than a result.
const maxErrorBody = 64 << 10

// limitedBody reads a response body through a limitReader (and maybe a
// messageTap) and closes the original.
type limitedBody struct {
	io.Reader
	io.Closer
}
