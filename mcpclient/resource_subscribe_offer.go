package mcpclient

import (
	"github.com/switchboard-mcp/switchboard/domain"
)

// OffersResourceSubscriptions reports whether the server declared the
// resources.subscribe capability when it connected. On a 2026-07-28
// connection the subscriptions travel on the listen stream (see
// listenFilter).
func (s *session) OffersResourceSubscriptions() bool {
	return s.caps.Resources != nil && s.caps.Resources.Subscribe
}

var _ domain.ResourceSubscribeOffer = (*session)(nil)
