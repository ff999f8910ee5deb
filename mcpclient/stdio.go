package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/domain"
)

// stderrWait bounds how long a lost session waits for the rest of a dead
// server's stderr, so that the supervisor's tail has its last words.
const stderrWait = time.Second

// connectStdio starts the server itself rather than letting mcp-go do it:
// mcp-go kills the child when Start's context ends, never reports its exit,
// and signals only the child, not what a wrapper like npx started.
func (c *Connector) connectStdio(ctx context.Context, cfg domain.ServerConfig, stderr io.Writer) (*session, error) {
	p, err := startProcess(cfg, stderr)
	if err != nil {
		return nil, connError(err)
	}
	s := newSession(c.opts.Log.With("server", cfg.Name), c.opts.KillGrace)
	s.onMessage = c.messageSink(cfg.Name)
	s.proc = p
	p.stdoutEnded = s.stdoutEnded
	s.work.Add(1)
	p.watch(func() {
		defer s.work.Done()
		s.afterExit()
	})
	s.log.Debug("stdio server started", "pid", p.pid)

	tooLarge := &tooLargeError{limit: c.opts.MaxMessageBytes, what: "a message", detail: " (no line end)",
		outcome: "it was stopped"}
	out := newLimitReader(outputReader{p}, c.opts.MaxMessageBytes, framingLine, tooLarge, s.overflowed)
	// The tap keeps the params of the server's requests as sent (see
	// sentParams).
	tr := transport.NewIO(s.large.reader(newMessageTap(out, framingLine, s.sent.see)), p.stdin, nil)
	// NewIO takes no options; applying one by hand keeps mcp-go off
	// slog.Default.
	transport.WithCommandLogger(mcpgoLogger(s.log))(tr)
	s.tr = tr
	s.asks = c.serverAsks(s, cfg.Name)
	key := cfg.Fingerprint()
	version := c.preferredVersion(key)
	c.newClient(ctx, s, cfg.Name, version)
	if err := c.handshake(ctx, s, version); err != nil {
		// Whatever failed, the next connect probes afresh.
		c.eras.forget(key)
		ce := handshakeError(ctx, s, err)
		var hte *domain.HandshakeTimeoutError
		if errors.As(ce, &hte) {
			// Cut off by the limit: note whether the server had crashed
			// meanwhile, then stop it at once rather than after waiting a
			// grace period on its closed stdin, so that Connect returns
			// when the limit passes, not seconds later.
			hte.Exited = p.hasExited()
			p.terminate()
		}
		if ctx.Err() == nil && pipeClosed(err) {
			// The server's pipes closed under the handshake: it most
			// likely exited, and the watcher is about to say with what.
			if lost := s.lostCause(ctx); lost != nil {
				ce = connError(lost)
			} else if p.exitedWithin(ctx, s.grace) {
				// Its stdin closed because it exited, though a child it
				// left behind keeps its stdout open, so the session has
				// not ended yet.
				ce = p.exitError()
			}
		}
		_ = s.Close()
		return nil, ce
	}
	if s.discover.timedOut() && !mcp.IsModernProtocol(s.version) {
		// The handshake worked after server/discover went unanswered:
		// the server may have been slow to start rather than old, so the
		// next connect probes again rather than settling on 2025.
		c.eras.forget(key)
	} else {
		c.eras.remember(key, s.version)
	}
	if mcp.IsModernProtocol(s.version) {
		s.listen()
	}
	return s, nil
}

// process is a stdio server running as the leader of its own process
// group. mcp-go sees only its pipes.
type process struct {
	pid    int      // also the process group id
	stdin  *os.File // our end of the server's stdin
	stdout *os.File // our end of the server's stdout
	stderr *os.File // our end of the server's stderr

	cmd    *exec.Cmd
	exited chan struct{}    // closed once Wait has returned
	state  *os.ProcessState // set before exited is closed

	outOnce sync.Once
	// stdoutEnded runs once, when reading the server's stdout fails; set
	// before anything reads it.
	stdoutEnded func()
	errEOF      chan struct{} // closed when the stderr copy has ended
}

// startProcess runs cfg's command with plain os pipes rather than
// exec.Cmd's, so that Wait neither closes them under mcp-go's reader nor
// waits for grandchildren that inherited them.
func startProcess(cfg domain.ServerConfig, stderr io.Writer) (*process, error) {
	if cfg.Command == "" {
		return nil, fmt.Errorf("%w: no command", errBadConfig)
	}
	// Pipes in the order stdin, stdout, stderr, each as read end, write end.
	var ends [6]*os.File
	for i := 0; i < len(ends); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeFiles(ends[:i]...)
			return nil, fmt.Errorf("start %s: %w", cfg.Command, err)
		}
		ends[i], ends[i+1] = r, w
	}
	inR, inW, outR, outW, errR, errW := ends[0], ends[1], ends[2], ends[3], ends[4], ends[5]

	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.WorkDir()
	cmd.Env = append(os.Environ(), envList(cfg.Env)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = groupAttr()
	err := cmd.Start()
	closeFiles(inR, outW, errW) // the child has its own copies now
	if err != nil {
		closeFiles(inW, outR, errR)
		return nil, fmt.Errorf("start %s: %w", cfg.Command, err)
	}

	if stderr == nil {
		stderr = io.Discard
	}
	p := &process{
		pid:   cmd.Process.Pid,
		stdin: inW, stdout: outR, stderr: errR,
		cmd:    cmd,
		exited: make(chan struct{}), errEOF: make(chan struct{}),
	}
	go copyLines(stderr, errR, p.errEOF)
	return p, nil
}

// watch waits for the server to exit on a goroutine of its own and then
// runs after on it, so that a running server costs one waiting goroutine
// rather than one for the exit and another to act on it. It is called
// once, right after startProcess.
func (p *process) watch(after func()) {
	go func() {
		awaitExit(p.pid) // without a thread, so Wait below returns at once
		_ = p.cmd.Wait() // the exit status is in ProcessState
		p.state = p.cmd.ProcessState
		close(p.exited)
		after()
	}()
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// envList renders env sorted, so the child's environment is reproducible;
// these entries come last and so win over inherited ones.
func envList(env map[string]string) []string {
	list := make([]string, 0, len(env))
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	slices.Sort(list)
	return list
}

// outputReader reads the server's stdout for mcp-go and notes when it ends.
type outputReader struct{ p *process }

func (o outputReader) Read(b []byte) (int, error) {
	n, err := o.p.stdout.Read(b)
	if err != nil && o.p.stdoutEnded != nil {
		o.p.outOnce.Do(o.p.stdoutEnded)
	}
	return n, err
}

// overflowed ends the session of a server whose line passed the limit, and
// kills its process group at once: mcp-go has stopped reading, so nothing
// the server writes from now on can be framed, and a server still writing
// would block on the full pipe. It runs on mcp-go's read loop, before the
// read error ends that loop, so that requests failing with a closed
// transport find this cause rather than the exit it leads to.
func (s *session) overflowed(err error) {
	s.fail(&domain.ConnError{Category: domain.CategoryProtocol, Err: err})
	select {
	case <-s.proc.exited:
	default:
		_ = signalGroup(s.proc.pid, syscall.SIGKILL)
	}
}

// stdoutEnded gives a server whose stdout closed the grace period to exit,
// and ends the session if it is still running then: it can no longer
// answer. Close kills it, and afterExit follows as for any exit. A timer
// rather than a waiting goroutine keeps an idle server's cost down.
func (s *session) stdoutEnded() {
	p := s.proc
	time.AfterFunc(s.grace, func() {
		if !p.hasExited() {
			s.fail(&domain.ConnError{Category: domain.CategoryProtocol,
				Err: errors.New("server closed its stdout but kept running")})
		}
	})
}

// afterExit runs once the server has exited: it ends the session with
// the exit code, and clears out whatever the server left running in its
// group.
func (s *session) afterExit() {
	p := s.proc
	var sweep sync.WaitGroup
	sweep.Go(func() { p.sweep(s.grace) })
	t := time.NewTimer(stderrWait)
	select {
	case <-p.errEOF:
	case <-t.C:
	}
	t.Stop()
	s.fail(p.exitError())
	sweep.Wait()
}
