package domain

// ResourceSubscribeOffer is a Session that knows whether its server offers
// resource subscriptions: the resources.subscribe capability it declared
// when it connected. mcpclient's sessions are; fakes need not be.
type ResourceSubscribeOffer interface {
	OffersResourceSubscriptions() bool
}

// OffersResourceSubscriptions reports whether a connected server offers
// resource subscriptions, so a gateway advertises them only where they can
// work. A session that cannot tell is taken at its word by whether it can
// subscribe at all (ResourceSubscriber). The error says the server is not
// connected, when nobody can tell.
func (f *Fleet) OffersResourceSubscriptions(server string) (bool, error) {
	sess, _, err := f.requestSession(server)
	if err != nil {
		return false, err
	}
	if o, ok := sess.(ResourceSubscribeOffer); ok {
		return o.OffersResourceSubscriptions(), nil
	}
	_, ok := sess.(ResourceSubscriber)
	return ok, nil
}
