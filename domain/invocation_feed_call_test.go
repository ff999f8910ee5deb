package domain

import "testing"

// A subscription to one call gets that call's changes only, in order, and
// none after Close; the scope's subscribers still get everything.
func TestSubscribeCallFollowsOneCall(t *testing.T) {
	f := NewInvocationFeed()
	scope := Scope{User: "local", Workspace: "/w"}
	all := f.Subscribe(scope)
	defer all.Close()
	one := f.SubscribeCall(scope, "a")
	other := f.SubscribeCall(Scope{User: "local", Workspace: "/elsewhere"}, "a")
	defer other.Close()

	f.publish(Invocation{ID: "a", Scope: scope, Status: InvocationPending})
	f.publish(Invocation{ID: "b", Scope: scope, Status: InvocationPending})
	v := f.reserve()
	f.publish(Invocation{ID: "b", Scope: scope, Status: InvocationRunning})
	f.offer(Invocation{ID: "a", Scope: scope, Status: InvocationSuccess, Version: v})

	got := one.Drain()
	if len(got) != 2 || got[0].Status != InvocationPending || got[1].Status != InvocationSuccess || got[1].Version != v {
		t.Errorf("the call's subscription: got %+v, want a's pending then its success at version %d", got, v)
	}
	if got := all.Drain(); len(got) != 4 {
		t.Errorf("the scope's subscription: got %d changes, want 4", len(got))
	}
	if got := other.Drain(); len(got) != 0 {
		t.Errorf("the same id in another scope: got %+v, want nothing", got)
	}
	one.Close()
	f.publish(Invocation{ID: "a", Scope: scope, Status: InvocationError})
	if got := one.Drain(); len(got) != 0 {
		t.Errorf("after Close: got %+v, want nothing", got)
	}
	if n := len(f.calls["a"]); n != 1 {
		t.Errorf("subscriptions left for a: got %d, want 1 (the other scope's)", n)
	}
}
