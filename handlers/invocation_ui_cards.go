package handlers

import (
	"net/url"
	"strconv"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// cardRenderer builds card props from an invocation and the fleet's
// current view of its server and tool, for the fragments and the stream.
type cardRenderer struct {
	fleet *domain.Fleet
	// elicitations shows a waiting call's question on its card; nil
	// shows none.
	elicitations *domain.Elicitations
}

// props builds one card; oob marks it as a replacement of the one shown.
func (r *cardRenderer) props(inv domain.Invocation, place views.CardPlace, oob bool) views.InvocationCardProps {
	in := views.CardInput{Place: place, URLs: r.urls(inv.ID, inv.ServerName), OOB: oob}
	if caps, err := r.fleet.Capabilities(inv.ServerName); err == nil {
		for i := range caps.Tools {
			if caps.Tools[i].Name == inv.Tool {
				in.Tool = &caps.Tools[i]
				break
			}
		}
	}
	if place == "" {
		place = views.CardInFeed
	}
	in.Elicitation = elicitationForm(r.elicitations, inv, views.CardID(place, inv.ID))
	return views.NewInvocationCardProps(inv, in)
}

func (r *cardRenderer) list(invs []domain.Invocation, place views.CardPlace) []views.InvocationCardProps {
	out := make([]views.InvocationCardProps, 0, len(invs))
	for _, inv := range invs {
		out = append(out, r.props(inv, place, false))
	}
	return out
}

func (r *cardRenderer) urls(id, server string) views.CardURLs {
	c := r.contentURLs(id)
	return views.CardURLs{
		Copy: func(part string) string {
			return invocationUIPath(PathUIInvocationCopy, id, url.Values{partParam: {part}})
		},
		Raw: func(part string) string {
			return invocationUIPath(PathUIInvocationCopy, id, url.Values{partParam: {part}, downloadParam: {"1"}})
		},
		Stop:    InvocationPath(PathUIInvocationStop, id),
		Retry:   InvocationPath(PathUIInvocationRetry, id),
		Approve: InvocationPath(PathUIInvocationApprove, id),
		Deny:    InvocationPath(PathUIInvocationDeny, id),
		SignIn:  ServerPath(PathUIAuthStart, server),
		Item:    c.Item,
		Media:   c.Media,
		Read:    c.Read,
	}
}

func (r *cardRenderer) contentURLs(id string) views.ContentURLs {
	return views.ContentURLs{
		Item: func(i int) string {
			return invocationUIPath(PathUIInvocation, id, url.Values{itemParam: {strconv.Itoa(i)}})
		},
		Media: func(i int) string {
			return invocationUIPath(PathUIInvocationMedia, id, url.Values{itemParam: {strconv.Itoa(i)}})
		},
		Read: func(uri string) string {
			return invocationUIPath(PathUIInvocationRead, id, url.Values{"uri": {uri}})
		},
		Raw: invocationUIPath(PathUIInvocationCopy, id, url.Values{partParam: {"result"}, downloadParam: {"1"}}),
	}
}
