package domain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// call is one invocation in flight. Its goroutine (run) and progress
// callbacks change it; readers take snapshots.
type call struct {
	svc    *Invocations
	done   chan struct{} // closed once the final state is stored
	asTask bool          // send as a task and poll it (runTask)
	asker  Asker         // answers the server's requests during the call; may be nil
	// ask holds the call for a person's approval before it is sent.
	ask       bool
	decisions chan decision // a person's approve or deny; holds at most one
	held      chan struct{} // closed when the hold limit passes while awaiting approval

	mu  sync.Mutex // guards inv, whole, cancel, cancelled and decided
	inv Invocation
	// whole is the result as the server sent it when the stored one was
	// cut to the cap: a gateway client waiting on the call still gets all
	// of it, as it would calling the server directly.
	whole     json.RawMessage
	cancel    context.CancelFunc
	cancelled bool
	decided   bool

	claimed atomic.Bool // run has begun, on some goroutine (see runOnce)
}

func (c *call) snapshot() Invocation {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inv
}

// save stores and publishes the current state.
func (c *call) save(ctx context.Context) error {
	c.mu.Lock()
	inv := c.svc.opts.Feed.publish(c.inv)
	c.inv.Version = inv.Version
	c.mu.Unlock()
	if err := c.svc.opts.Store.SaveInvocation(ctx, inv); err != nil {
		return fmt.Errorf("save invocation %s: %w", inv.ID, err)
	}
	return nil
}

// savePending publishes the pending state and stores it: queued without
// waiting when queued is set (it then rides in the batch of the call's
// final state, or lingers briefly), otherwise committed before Start
// returns, since a caller that is given the call's id may hand it on (an
// API client), and the id must then be found even after a crash; so must
// a replayed call key, which only the store can refuse.
func (c *call) savePending(ctx context.Context, queued bool) error {
	if !queued {
		return c.save(ctx)
	}
	c.queue()
	return nil
}

// queue publishes the current state and hands it to the store without
// waiting: a state a crash may lose, since the call is not over.
func (c *call) queue() {
	c.mu.Lock()
	inv := c.svc.opts.Feed.publish(c.inv)
	c.inv.Version = inv.Version
	c.mu.Unlock()
	c.svc.opts.Store.QueueInvocation(inv, func(err error) {
		c.svc.opts.Log.Error("save invocation", "invocation", inv.ID, "error", err)
	})
}

func (c *call) cancelByPerson() {
	c.mu.Lock()
	c.cancelled = true
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (c *call) wait(ctx context.Context) (Invocation, error) {
	select {
	case <-c.done:
		return c.snapshot(), nil
	case <-ctx.Done():
		return Invocation{}, ctx.Err()
	}
}

func (c *call) move(to InvocationStatus) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.inv.Status.CanBecome(to) {
		return false
	}
	c.inv.Status = to
	return true
}

// run sends the call and records how it ended.
func (c *call) run() {
	s := c.svc
	bg := context.Background()
	id := c.snapshot().ID
	defer func() {
		s.mu.Lock()
		delete(s.running, id)
		s.mu.Unlock()
		close(c.done)
	}()

	if c.ask && !c.awaitApproval(bg) {
		return
	}
	inv := c.snapshot()
	timeout, err := s.opts.Caller.CallTimeout(inv.ServerName)
	if err != nil {
		c.finish(bg, nil, err)
		return
	}
	ctx, cancel := context.WithTimeout(WithAsker(bg, recordingAsker{c: c, inner: c.asker}), timeout)
	defer cancel()
	c.mu.Lock()
	c.cancel = cancel
	cancelled := c.cancelled
	c.mu.Unlock()
	if cancelled {
		c.finish(bg, nil, context.Canceled)
		return
	}
	// An approved call was already saved as running when it was approved.
	if c.move(InvocationRunning) {
		c.queue()
	}
	var result json.RawMessage
	if c.asTask {
		result, err = c.runTask(ctx, inv)
	} else {
		result, err = s.opts.Caller.CallTool(ctx, inv.ServerName, inv.Tool, inv.Arguments, c.onProgress)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("no answer within %s: %w", timeout, err)
	}
	c.finish(bg, result, err)
}

func (c *call) onProgress(p Progress) {
	c.mu.Lock()
	if c.inv.Status != InvocationRunning {
		c.mu.Unlock()
		return
	}
	c.inv.Progress = &p
	inv := c.svc.opts.Feed.publish(c.inv)
	c.inv.Version = inv.Version
	c.mu.Unlock()
}

// finish records the outcome: cancelled when a person asked, error for a
// failed call or an isError result, success otherwise.
func (c *call) finish(ctx context.Context, result json.RawMessage, callErr error) {
	s := c.svc
	c.mu.Lock()
	cancelled := c.cancelled
	c.mu.Unlock()
	to := InvocationSuccess
	switch {
	case cancelled:
		to = InvocationCancelled
	case callErr != nil:
		to = InvocationError
	}
	parsed := ParseResult(result)
	if to == InvocationSuccess && parsed.IsError {
		to = InvocationError
	}
	if !c.move(to) {
		// Pending straight to success would hide that the call ran; it
		// cannot happen, since run moves to running before calling.
		s.opts.Log.Error("refused invocation transition", "invocation", c.snapshot().ID, "to", string(to))
	}
	var code string
	var scopes []string
	if callErr != nil && !cancelled {
		code, scopes, callErr = s.stepUp(c.snapshot(), callErr)
	}
	if to == InvocationSuccess {
		inv := c.snapshot()
		s.stepUps.succeeded(inv.ServerName, inv.Tool)
	}
	var violations []Violation
	if len(result) > 0 {
		// Checked outside the lock: a large result can take a while, and
		// readers of the call's state should not wait on it.
		inv := c.snapshot()
		violations = outputViolations(s.opts.Validator, s.outputSchema(inv.ServerName, inv.Tool), parsed)
	}
	c.mu.Lock()
	c.inv.EndedAt = s.opts.Clock.Now()
	if callErr != nil && !cancelled {
		if code != "" {
			c.inv.ErrorCode, c.inv.NeededScopes = code, scopes
		}
		msg := callErr.Error()
		if r, err := s.opts.Catalog.Redactor(c.inv.ServerName); err == nil {
			msg = r.Redact(msg)
		}
		c.inv.Error = msg
	}
	if len(result) > 0 {
		c.inv.OutputViolations = violations
		c.inv.ResultSize = int64(len(result))
		c.inv.Result, c.inv.Truncated = capResult(result, s.opts.MaxResultBytes)
		if c.inv.Truncated {
			c.whole = result
		}
	}
	inv := c.inv
	c.mu.Unlock()
	c.record(ctx, inv, to)
	s.opts.Log.Info("tool call finished", "server", inv.ServerName, "tool", inv.Tool, "invocation", inv.ID,
		"status", string(to), "duration", inv.EndedAt.Sub(inv.StartedAt).Round(time.Millisecond).String())
}

// record publishes the final state of inv, which ended as to, as soon as
// it is decided, and stores it with its audit row, returning once both
// are durable. The pages see the end without waiting for the disk;
// whoever is handed the result (an agent through the gateway, a waiter of
// Await) is handed it only after record returns, since run closes done
// after it, so a crash never loses a call an agent was answered about.
// A store that can take the write before it commits (FinishQueuer) is
// handed it before the feed shows the end, so a page that lists calls
// after seeing the end never reads an older state.
func (c *call) record(ctx context.Context, inv Invocation, to InvocationStatus) {
	s := c.svc
	inv.Version = s.opts.Feed.reserve()
	c.mu.Lock()
	c.inv.Version = inv.Version
	c.mu.Unlock()
	rec := AuditRecord{InvocationID: inv.ID, Scope: inv.Scope, ServerName: inv.ServerName, Tool: inv.Tool,
		ArgsSHA256: ArgumentsHash(inv.Arguments), StartedAt: inv.StartedAt, EndedAt: inv.EndedAt, Outcome: to}
	committed := func(ctx context.Context) error { return s.opts.Store.FinishInvocation(ctx, inv, rec) }
	if q, ok := s.opts.Store.(FinishQueuer); ok {
		committed = q.QueueFinish(inv, rec, func(err error) {
			s.opts.Log.Error("save invocation", "invocation", inv.ID, "error", err)
		})
	}
	s.opts.Feed.offer(inv.Preview())
	if err := committed(ctx); err != nil {
		s.opts.Log.Error("save invocation", "invocation", inv.ID, "error", err)
	}
}

// FinishQueuer is an InvocationStore that can take a call's final state
// and audit row at once and commit them, both or neither, in the
// background: reads from then on see them. The function it returns waits
// until both are durable: committed, as FinishInvocation does, or kept
// where the store commits them from after a crash (a journal), so that
// the commit itself can come later, shared with other calls'. failed,
// when not nil, learns of a commit that fails after that wait returned.
type FinishQueuer interface {
	QueueFinish(inv Invocation, rec AuditRecord, failed func(error)) (durable func(ctx context.Context) error)
}

func resultIsError(result json.RawMessage) bool { return ParseResult(result).IsError }

// outputSchema is the tool's outputSchema as the server lists it now, or
// nil when the tool or its server is no longer known.
func (s *Invocations) outputSchema(server, tool string) json.RawMessage {
	caps, err := s.opts.Catalog.Capabilities(server)
	if err != nil {
		return nil
	}
	t, ok := findTool(caps, tool)
	if !ok {
		return nil
	}
	return t.OutputSchema
}

// ArgumentsHash is the hex SHA-256 of the arguments in canonical form:
// object keys sorted and no insignificant white space, so the same
// arguments always hash the same.
func ArgumentsHash(args json.RawMessage) string {
	var v any
	canonical := []byte(args)
	if json.Unmarshal(args, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			canonical = b
		}
	}
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}
