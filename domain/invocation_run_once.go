package domain

import "context"

// runOnce runs the call unless another goroutine already has: start
// hands every call to a goroutine of its own, so that it runs whoever
// waits for it, and a Waiter that comes first runs it itself (runHere).
func (c *call) runOnce() {
	if c.claimed.CompareAndSwap(false, true) {
		c.run()
	}
}

// runHere runs the call on the waiting goroutine when no other has begun
// it, saving the hand-over to the call's goroutine and back, two wake-ups
// that on a small machine cost as much as the rest of Switchboard's part
// of a call. A call that awaits a person's approval is left to its own
// goroutine, so the Waiter can give up when the hold passes. Ending ctx
// cancels the call, as it does when the Waiter waits (awaitCall).
func (c *call) runHere(ctx context.Context) {
	if c.ask || !c.claimed.CompareAndSwap(false, true) {
		return
	}
	stop := context.AfterFunc(ctx, c.cancelByPerson)
	defer stop()
	c.run()
}
