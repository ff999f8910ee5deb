package domain

import (
	"context"
	"sync"
	"time"
)

// Follow keeps the levels people and clients asked for across reconnects, until ctx ends:
// a new connection starts at the server's own default, so each server is
// asked again for its remembered level whenever it connects anew. A server
// that is removed is forgotten.
func (l *ServerLogs) Follow(ctx context.Context, hub *Hub) {
	sub := hub.Subscribe()
	defer sub.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	asked := map[string]time.Time{} // the ConnectedAt each server was last asked on
	for {
		batch, err := sub.Next(ctx)
		if err != nil {
			return
		}
		for _, st := range batch {
			name := st.ServerName
			if st.Phase == PhaseDisposed {
				l.Forget(name)
				delete(asked, name)
				continue
			}
			if st.State != StateConnected || st.ConnectedAt.Equal(asked[name]) {
				continue
			}
			asked[name] = st.ConnectedAt
			l.mu.Lock()
			_, wished := l.levels[name]
			l.mu.Unlock()
			if !wished || l.opts.Levels == nil {
				continue
			}
			// One slow server must not hold back the others' levels.
			wg.Add(1)
			go func() {
				defer wg.Done()
				if level, err := l.resend(ctx, name); err != nil && ctx.Err() == nil {
					l.opts.Log.Warn("cannot ask a reconnected server for its log level again", "server", name, "level", level, "error", err)
				}
			}()
		}
	}
}
