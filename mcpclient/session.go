package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// changesBuffer is how many list_changed notifications wait for the
// consumer; more are dropped, which is harmless because the consumer
// re-lists everything that changed after a debounce anyway.
const changesBuffer = 8

// session is one live connection: a stdio process or a remote endpoint.
type session struct {
	log     *slog.Logger
	grace   time.Duration
	tr      transport.Interface
	client  *client.Client
	version string
	caps    mcp.ServerCapabilities
	// discover is how a stdio server met the server/discover probe.
	discover discoverOutcome

	// ctx is the long-lived context mcp-go's transport runs on; cancel
	// ends it, and with it the GET or listen stream.
	ctx    context.Context
	cancel context.CancelFunc

	proc        *process        // the stdio server; nil for remote ones
	httpTr      *http.Transport // the remote server's connections; nil for stdio
	handshakeEx *exchange       // HTTP statuses seen during the handshake
	stopListen  func()          // ends a 2026-07-28 subscriptions/listen stream
	probe       *modernProbe    // the transport of a 2026-07-28 attempt over HTTP; nil otherwise
	lists       listCache       // 2026-07-28 lists that may be reused (ttlMs)
	relisten    chan struct{}   // asks the 2026-07-28 listen stream to reopen (see relistenNow)
	listenMu    sync.Mutex      // guards listenEnd
	listenEnd   func()          // ends the listen request in flight, so relistenNow reopens it at once

	changes chan domain.ListKind
	done    chan struct{}
	// lost ends with done; requests run under it too (see bound).
	lost context.Context
	lose context.CancelFunc

	calls progressRoutes // progress notifications by token
	// asks answers the server's elicitation, sampling and roots requests
	// for the call they belong to; nil on legacy SSE, whose transport
	// cannot send answers. answers sends them on streamable HTTP.
	asks    *serverAsks
	answers *answerPoster
	running inFlight     // the calls a server's request may belong to
	sent    sentParams   // the params of its requests, as it sent them
	large   largeResults // large results of a stdio server kept out of mcp-go
	// onMessage receives notifications/message and
	// notifications/resources/updated; nil drops them. Set before the
	// transport starts.
	onMessage func(method string, p mcp.NotificationParams)

	mu  sync.Mutex        // guards err
	err *domain.ConnError // why done was closed

	closeOnce sync.Once
	closeErr  error
	work      sync.WaitGroup // goroutines Close waits for
}

func newSession(log *slog.Logger, grace time.Duration) *session {
	ctx, cancel := context.WithCancel(context.Background())
	lost, lose := context.WithCancel(context.Background())
	return &session{
		lost:        lost,
		lose:        lose,
		log:         log,
		grace:       grace,
		ctx:         ctx,
		cancel:      cancel,
		handshakeEx: &exchange{},
		changes:     make(chan domain.ListKind, changesBuffer),
		relisten:    make(chan struct{}, 1),
		done:        make(chan struct{}),
	}
}

func (s *session) ProtocolVersion() string { return s.version }

func (s *session) Changes() <-chan domain.ListKind { return s.changes }

func (s *session) Done() <-chan struct{} { return s.done }

// Err returns a copy of the failure, since the supervisor fills in the
// stderr tail of what it gets.
func (s *session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		return nil
	}
	e := *s.err
	return &e
}

// fail records the first reason the connection was lost and closes Done.
// It never blocks, because mcp-go calls it from its read loops.
func (s *session) fail(err *domain.ConnError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	s.err = err
	close(s.done)
	s.lose()
}

// bound returns ctx, ended also when the session is lost, so that a request
// whose answer can no longer arrive fails at once rather than at its
// deadline: on legacy SSE every answer comes over the event stream, and
// mcp-go's request waits on only its context once that stream is gone.
// requestError then reports why the session was lost.
func (s *session) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.lost, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// onNotification runs inline on mcp-go's read loop, so it only hands the
// change over, dropping it if the consumer is behind.
func (s *session) onNotification(n mcp.JSONRPCNotification) {
	var kind domain.ListKind
	switch n.Method {
	case string(mcp.MethodNotificationProgress):
		s.calls.route(n.Params.AdditionalFields)
		return
	case string(mcp.MethodNotificationMessage), mcp.MethodNotificationResourceUpdated:
		if s.onMessage != nil {
			s.onMessage(n.Method, n.Params)
		}
		return
	case mcp.MethodNotificationToolsListChanged:
		kind = domain.ListTools
	case mcp.MethodNotificationResourcesListChanged:
		kind = domain.ListResources
	case mcp.MethodNotificationPromptsListChanged:
		kind = domain.ListPrompts
	default:
		return
	}
	s.lists.drop(kind)
	select {
	case s.changes <- kind:
	default:
	}
}

// Probe sends ping, or on 2026-07-28, which has no ping, one cheap list
// the server declared (see aliveModern), within the caller's deadline.
func (s *session) Probe(ctx context.Context) error {
	ex := &exchange{}
	rctx := withExchange(ctx, ex)
	var err error
	if mcp.IsModernProtocol(s.version) {
		err = s.aliveModern(rctx)
	} else if err = s.client.Ping(rctx); err != nil {
		err = fmt.Errorf("ping: %w", err)
	}
	if err != nil {
		return s.requestError(ctx, ex, err)
	}
	return nil
}

// requestError categorizes a failed request and ends the session when the
// failure says the connection is gone.
func (s *session) requestError(ctx context.Context, ex *exchange, err error) error {
	err = unrepeated(err)
	if ctx.Err() != nil {
		return contextError(ctx, err)
	}
	if s.proc != nil && pipeClosed(err) {
		// The server's pipes closed; the process watcher knows why.
		if lost := s.lostCause(ctx); lost != nil {
			return lost
		}
	}
	if errors.Is(err, context.Canceled) {
		select {
		case <-s.done:
			// The caller did not cancel: bound did, as the session was lost.
			return s.Err()
		default:
		}
	}
	ce := connError(ex.explain(err))
	if cat := ex.category(false); cat != "" {
		ce = &domain.ConnError{Category: cat, Err: err}
	}
	if endsSession(ce.Category) {
		s.fail(ce)
	}
	return ce
}

// pipeClosed reports whether err says a stdio server's pipes are gone:
// mcp-go fails a request with ErrTransportClosed once it has read EOF, and
// with EPIPE when it writes before noticing.
func pipeClosed(err error) bool {
	return errors.Is(err, transport.ErrTransportClosed) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, os.ErrClosed)
}

// lostCause returns why the session ended, waiting briefly for the process
// watcher when a stdio server's output has just ended.
func (s *session) lostCause(ctx context.Context) error {
	if s.proc != nil {
		t := time.NewTimer(s.grace)
		defer t.Stop()
		select {
		case <-s.done:
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return s.Err()
}

// contextError categorizes err from a request whose ctx ended: the
// caller's deadline makes it a timeout, whatever mcp-go made of it.
func contextError(ctx context.Context, err error) *domain.ConnError {
	cat := domain.CategoryTimeout
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		cat = domain.CategoryProtocol
	}
	if !errors.Is(err, ctx.Err()) {
		err = fmt.Errorf("%w (%w)", err, ctx.Err())
	}
	return &domain.ConnError{Category: cat, Err: err}
}

// Close ends the session: it closes Done, ends the streams, and for stdio
// closes stdin and then escalates to SIGTERM and SIGKILL of the whole
// process group. It returns the same result every time.
func (s *session) Close() error {
	s.closeOnce.Do(func() {
		s.fail(&domain.ConnError{Category: domain.CategoryProtocol, Err: ErrSessionClosed})
		if s.stopListen != nil {
			s.stopListen()
		}
		if s.client != nil {
			_ = s.client.Close()
		} else if s.tr != nil {
			_ = s.tr.Close()
		}
		if s.proc != nil {
			s.closeErr = s.proc.stop(s.grace)
		}
		s.cancel()
		s.work.Wait()
		if s.proc != nil {
			s.proc.release()
		}
		if s.httpTr != nil {
			s.httpTr.CloseIdleConnections()
		}
	})
	return s.closeErr
}
