package main

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// startupQuiet is how long no server may be connecting before the memory
// of the startup burst is handed back: long enough that a fleet still
// starting one server after another is not interrupted, short enough that
// an idle process settles soon after its last handshake.
const startupQuiet = time.Second

// startupMemory hands the memory of the startup burst back to the
// operating system once. Connecting a team's fleet at once (200 stdio
// handshakes, each decoding its server's lists) raises the heap far above
// what the connected fleet keeps; the Go runtime returns such pages only
// gradually, so without this the process stays tens of megabytes larger
// than it needs to be for minutes. It runs once, when no server has been
// connecting for Quiet, because later reconnects are one server at a time
// and the runtime's own scavenger handles those.
type startupMemory struct {
	Hub   *domain.Hub
	Clock domain.Clock
	Quiet time.Duration
	// Release returns freed memory; releaseStartupBurst by default.
	Release func()
}

// shrinkCollections is how many collections run before the release. Each
// collection at most halves a goroutine's stack, and the handshakes grow
// the stacks of every session's goroutines (JSON decoding, the lists)
// several times over what they need once idle; a few collections bring
// them back down, and the release then returns the freed stack memory.
const shrinkCollections = 3

// idleGCPercent is the collector's growth allowance once the fleet is up:
// the heap may grow by half its live size between collections, not by all
// of it (Go's default, 100). A connected fleet allocates little (probes,
// status snapshots), so the extra collections cost next to no CPU, while
// the heap the process keeps resident shrinks by a quarter: with 200
// servers, about 8 MB of a 60 MB process. A GOGC set in the environment
// is the person's own choice and is kept.
const idleGCPercent = 50

// releaseStartupBurst shrinks the goroutine stacks grown during the burst,
// returns freed memory to the operating system and, unless GOGC is set,
// lowers the collector's allowance to idleGCPercent. The startup burst
// itself runs at the default, where collecting less often makes the
// handshakes of a whole fleet finish sooner.
func releaseStartupBurst() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(idleGCPercent)
	}
	for range shrinkCollections {
		runtime.GC()
	}
	debug.FreeOSMemory() // collects once more, then releases
}

// run waits for the fleet to be quiet and releases once, or returns when
// ctx ends.
func (m startupMemory) run(ctx context.Context) {
	if m.Release == nil {
		m.Release = releaseStartupBurst
	}
	sub := m.Hub.Subscribe()
	defer sub.Close()
	connecting := connectingSet{}
	// The wait starts with the first news: a process with no servers
	// had no burst to hand back.
	var (
		t     domain.Timer
		quiet <-chan time.Time
	)
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-quiet:
			m.Release()
			return
		case <-sub.Ready():
			// The wait runs while no server is connecting; a server
			// that starts to connect calls it off. Other news (a
			// latency measured, a log level) leaves it running, or
			// a fleet that keeps reporting would never be quiet.
			switch idle := connecting.note(sub.Drain()); {
			case idle && quiet == nil:
				t = m.Clock.NewTimer(m.Quiet)
				quiet = t.C()
			case !idle && quiet != nil:
				t.Stop()
				quiet = nil
			}
		}
	}
}

// connectingSet is the servers whose newest snapshot says connecting.
type connectingSet map[string]bool

// note takes in snapshots and reports whether no server is connecting.
func (c connectingSet) note(sts []domain.Status) (idle bool) {
	for _, st := range sts {
		if st.Phase == domain.PhaseConnecting {
			c[st.ServerName] = true
		} else {
			delete(c, st.ServerName)
		}
	}
	return len(c) == 0
}
