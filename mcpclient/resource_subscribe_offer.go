package mcpclient

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// OffersResourceSubscriptions reports whether the server declared the
// resources.subscribe capability when it connected and this session can
// use it. On a 2026-07-28 connection it cannot yet: mcp-go's Subscribe
// there only notes the URI for the next subscriptions/listen, and the
// session's listen stream is opened once, for list changes, so the
// server would never hear of the subscription.
func (s *session) OffersResourceSubscriptions() bool {
	return s.caps.Resources != nil && s.caps.Resources.Subscribe && !mcp.IsModernProtocol(s.version)
}

var _ domain.ResourceSubscribeOffer = (*session)(nil)
