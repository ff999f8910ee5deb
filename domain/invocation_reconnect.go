package domain

import "context"

// ConnectAwaiter waits for a server that is (re)connecting to be
// connected; the Fleet implements it. A Catalog that does not is never
// waited for.
type ConnectAwaiter interface {
	AwaitConnected(ctx context.Context, server string) (Status, error)
}

// awaitConnected holds an AI client's call to a server that is not
// connected until it is, or until the server's connect limit passes
// (*NotReadyError): the gateway keeps a briefly reconnecting server's
// tools listed, so a call to one should run, not fail at once. A person's
// call (dashboard, API) is not held: Runnable refuses it at once, saying
// why, and the person decides.
func (s *Invocations) awaitConnected(ctx context.Context, req CallRequest, st Status) error {
	if st.State == StateConnected || (req.Source != SourceGateway && !req.Forwarded) {
		return nil
	}
	a, ok := s.opts.Catalog.(ConnectAwaiter)
	if !ok {
		return nil
	}
	st, err := a.AwaitConnected(ctx, req.Server)
	if err != nil {
		return err
	}
	return refusal(st)
}
